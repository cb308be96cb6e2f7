package policy

// The presets behind --confirm: rules that ask a person before a kind of
// action. Their patterns are deliberately wide: a needless question costs
// a "yes", a missing one a purchase.
var presets = map[string]*Policy{
	"submits": {Rules: []Rule{
		confirm("--confirm submits", "it submits a form (POST)", Condition{Tool: MustPattern(submitting), FormMethod: MustPattern("post")}),
		confirm("--confirm submits", "it calls a page tool the page does not mark read-only", Condition{Tool: MustPattern("page_tool"), ReadOnly: &writes}),
	}},
	"purchases": {Rules: []Rule{
		confirm("--confirm purchases", "it looks like a purchase", Condition{
			Tool: MustPattern(activating),
			Name: MustPattern("*buy*|*pay*|*order*|*checkout*|*check out*|*purchase*|*subscribe*|*donate*|*book now*|*reserve*"),
		}),
		confirm("--confirm purchases", "it submits a checkout, order or payment form", Condition{
			Tool:       MustPattern(submitting),
			FormAction: MustPattern("*checkout*|*order*|*pay*|*purchase*|*billing*|*subscribe*"),
		}),
		confirm("--confirm purchases", "it calls a page tool that looks like a purchase", Condition{
			Tool: MustPattern("page_tool"), ReadOnly: &writes,
			Name: MustPattern("*buy*|*pay*|*order*|*checkout*|*check_out*|*purchase*|*subscribe*|*donate*|*book*|*reserve*"),
		}),
	}},
	"deletes": {Rules: []Rule{
		confirm("--confirm deletes", "it looks like deleting something", Condition{
			Tool: MustPattern(activating),
			Name: MustPattern("*delete*|*remove*|*erase*|*destroy*|*discard*|*trash*|*wipe*|*cancel subscription*|*cancel membership*|*cancel plan*|*close account*|*close my account*|*deactivate*|*unsubscribe*"),
		}),
		confirm("--confirm deletes", "it submits a form that deletes", Condition{
			Tool:       MustPattern(submitting),
			FormAction: MustPattern("*delete*|*remove*|*destroy*|*erase*|*deactivate*|*unsubscribe*|*close*account*|*cancel*"),
		}),
		confirm("--confirm deletes", "it calls a page tool that looks like deleting something", Condition{
			Tool: MustPattern("page_tool"), ReadOnly: &writes,
			Name: MustPattern("*delete*|*remove*|*erase*|*destroy*|*discard*|*trash*|*wipe*|*cancel*|*close*account*|*deactivate*|*unsubscribe*"),
		}),
	}},
	"all": {Rules: []Rule{
		confirm("--confirm all", "it changes the page", Condition{
			Tool: MustPattern("click|type|select|check|uncheck|press|drag|upload|mouse|mouse_path|set_slider|multi_select"),
		}),
		confirm("--confirm all", "it calls a page tool the page does not mark read-only", Condition{Tool: MustPattern("page_tool"), ReadOnly: &writes}),
	}},
}

// writes is the ReadOnly of a page tool the page does not mark read-only.
var writes = false

// activating are the tools that activate the element they aim at (press
// aims at the focused element, and only with Enter or Space).
const activating = "click|mouse|press"

// submitting are the tools that may submit a form: activating ones, and
// type with submit (Enter in a field).
const submitting = activating + "|type"

func confirm(source, reason string, c Condition) Rule {
	return Rule{When: c, Then: Confirm, Reason: reason, Source: source}
}
