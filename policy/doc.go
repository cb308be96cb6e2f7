// Package policy is the user's action policy: which of the agent's page
// actions may run, which are refused, and which wait for a person's yes.
//
// A policy is an ordered list of rules. Each rule has a condition (when)
// and a decision (then): allow, deny or confirm. The first rule whose
// condition matches an action decides; an action no rule matches is
// allowed. A condition names any of
//
//   - tool: the model's tool (click, type, select, press, goto, ...);
//   - site: the page's host (shop.example; *.shop.example also matches
//     shop.example itself; with a port, host:port);
//   - role and name: the role and accessible name of the element the
//     action aims at, as the snapshot shows them (button, "Place order");
//   - form_method and form_action: the form the action would submit (a
//     click on its submit button, Enter in one of its fields): get or post,
//     and its absolute action URL.
//
// A condition that names nothing matches every action; one that names a
// form matches only actions that submit one.
//
// Every value is a pattern: case-insensitive, * stands for any run of
// characters (none included), and | separates alternatives
// ("*buy*|*pay*"). Spaces in names are compared as single spaces. There is
// no other special character.
//
// A policy is read from YAML by [Parse] or [Load], whose errors (an
// [*Error]) name the file, the line and what to write instead; [Presets]
// makes the built-in rules behind webagent's --confirm flag (submits,
// purchases, deletes, all). [Join] puts policies one after the other, and
// [Policy.Decide] decides an [Action]. The package knows nothing of the
// browser: the agent asks the browser what an action aims at
// (contract.TargetDescriber) and hands it here.
//
// The file format:
//
//	version: 1
//	rules:
//	  - when: {tool: click, site: "*.shop.example", role: button, name: "*buy*|*pay*|*order*"}
//	    then: confirm
//	  - when: {form_method: post, form_action: "*/account/delete*"}
//	    then: deny
//	    reason: deleting the account is never wanted
package policy
