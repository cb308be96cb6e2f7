package judge

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/webagent/webagent/contract"
)

// The judge's questions, after WebJudge's three prompts, and the reading
// of its answers.

// Bounds of what one request carries.
const (
	maxPageText    = 4000  // a step's page text, scored without vision
	maxChosenText  = 2000  // a chosen step's page text in the verdict
	maxVerdictText = 60000 // all chosen page texts in the verdict
	maxReason      = 400   // a step's reason, as recorded
)

const keyPointsPrompt = `You read a task given to an agent that uses a web browser, and list its key points: the elements, conditions and steps the task itself states as needed to complete it.

Rules:
- List only what the task states. Do not infer or add requirements.
- A superlative or ordering word ("cheapest", "best", "newest", "highest rated", "closest", "most recent", ...) is a key point of its own that must be met by sorting or filtering, e.g. "sort by lowest price".

Answer with:
Key Points:
1. ...
2. ...
one key point per line, without explanations.`

const stepPrompt = `You judge whether one step of a web agent's work shows what is needed to complete its task: the page %s after the step.

Look for evidence that matters to the key points: the results shown, filters or sorting applied, values entered, a confirmation, progress towards the goal, or the information the task asks for. Partial but relevant evidence counts for something.

Answer with:
Reasoning: what the page shows and how it bears on the key points (at most five sentences)
Score: a number from 1 to 5, where
1 = nothing relevant to the task,
2 = little, or ambiguous, unlikely to matter,
3 = some relevant steps or hints, incomplete or unclear,
4 = important, highly relevant evidence, not complete,
5 = clear evidence of the steps or the result the task needs.`

const verdictPrompt = `You evaluate whether a web agent completed its task. You get the task, its key points, the agent's action history (facts: what it did and what the browser reported), the steps whose pages may matter most with why they matter, and the answer the agent gave at the end.

The agent's final answer is its own claim, not evidence: accept what it states only where the pages or the action history show it. Check every key point.

Rules:
1. Results must be shown as asked: a filter or sorting that was not applied, not confirmed, or had no visible effect means failure.
2. Superlatives and orderings ("cheapest", "newest", "highest rated", ...) must be met by sorting or filtering, not by searching for the words.
3. A requirement that a filter can express must be applied by that filter; a search that only types the requirements cannot guarantee the results meet them.
4. A range (prices, years, rooms, ...) must be applied exactly: a filter wider or narrower than asked is a failure (asked under $50, filtered under $25: failure; asked 2 beds, filtered 2+ beds: failure).
5. Some tasks need a submission or a displayed result to be complete.
6. When the site correctly shows that nothing matches, and the agent did what was required, that is a success.
7. When the page already shows every item, a filter is not needed if the agent picked the items that meet the requirement.
8. A request listed as blocked by --read-only was stopped on purpose and never sent: judge whether what the page would have sent is what the task required, as if it had been sent.

End your answer with exactly two lines:
Thoughts: your reasoning, checking each key point
Status: success or failure`

// keyPointsMessages asks for the task's key points.
func keyPointsMessages(task string) []contract.Message {
	return []contract.Message{
		{Role: contract.RoleSystem, Content: keyPointsPrompt},
		{Role: contract.RoleUser, Content: "Task: " + task},
	}
}

// stepMessages asks for one step's score: its screenshot, or its page
// text.
func (s *session) stepMessages(points []string, st Step) []contract.Message {
	head := fmt.Sprintf("Task: %s\n\nKey points:\n%s\n\nStep %d, at %s.", s.t.Task, numbered(points), st.Iteration, st.URL)
	if s.j.cfg.Vision {
		return []contract.Message{
			{Role: contract.RoleSystem, Content: fmt.Sprintf(stepPrompt, "(a screenshot)")},
			{Role: contract.RoleUser, Content: head + " The screenshot of the page after the step is attached.", Images: [][]byte{st.Screenshot}},
		}
	}
	return []contract.Message{
		{Role: contract.RoleSystem, Content: fmt.Sprintf(stepPrompt, "(its text)")},
		{Role: contract.RoleUser, Content: head + " The page's text as the agent saw it at this step:\n\n" + clip(st.Page, maxPageText)},
	}
}

// verdictMessages asks for the verdict: the key points, the action
// history, the chosen steps (their screenshots or page texts) and the
// agent's claim.
func (s *session) verdictMessages(points []string, scored []ScoredStep) []contract.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n", s.t.Task)
	if s.t.URL != "" {
		fmt.Fprintf(&b, "The agent started at %s.\n", s.t.URL)
	}
	fmt.Fprintf(&b, "\nKey points:\n%s\n\nAction history:\n%s\n", numbered(points), s.history())
	if s.t.Ending != "" {
		fmt.Fprintf(&b, "\nThe run ended: %s\n", s.t.Ending)
	}
	answer := s.t.Answer
	if strings.TrimSpace(answer) == "" {
		answer = "(none)"
	}
	fmt.Fprintf(&b, "\nThe agent's final answer (its own claim, to be checked against the evidence): %s\n", answer)
	byIter := map[int]Step{}
	for _, st := range s.t.Steps {
		byIter[st.Iteration] = st
	}
	var images [][]byte
	texts := 0
	n := 0
	for _, sc := range scored {
		if !sc.Chosen {
			continue
		}
		n++
		if n == 1 {
			b.WriteString("\nThe steps whose pages may matter most, and why:\n")
		}
		fmt.Fprintf(&b, "%d. step %d: %s\n", n, sc.Iteration, sc.Reason)
		st := byIter[sc.Iteration]
		switch {
		case s.j.cfg.Vision:
			images = append(images, st.Screenshot)
		case texts < maxVerdictText:
			page := clip(st.Page, maxChosenText)
			texts += len(page)
			fmt.Fprintf(&b, "   its page text:\n%s\n", indent(page))
		}
	}
	if n > 0 && s.j.cfg.Vision {
		b.WriteString("Their screenshots are attached, in this order.\n")
	}
	return []contract.Message{
		{Role: contract.RoleSystem, Content: verdictPrompt},
		{Role: contract.RoleUser, Content: b.String(), Images: images},
	}
}

// history is the action history: each step's actions, and the requests
// --read-only stopped.
func (s *session) history() string {
	var b strings.Builder
	n := 0
	for _, st := range s.t.Steps {
		for _, a := range st.Actions {
			n++
			fmt.Fprintf(&b, "%d. (step %d) %s\n", n, st.Iteration, a)
		}
		for _, w := range st.Blocked {
			n++
			fmt.Fprintf(&b, "%d. (step %d) blocked by --read-only, never sent: %s\n", n, st.Iteration, w)
		}
	}
	if n == 0 {
		return "(no actions)"
	}
	return strings.TrimRight(b.String(), "\n")
}

var (
	keyPointsHead = regexp.MustCompile(`(?i)key\s*points\**\s*:?\**`)
	listMark      = regexp.MustCompile(`^\s*(?:[-*•]+|\d+[.)]|\*\*)\s*`)
	scoreRE       = regexp.MustCompile(`(?i)score\W{0,8}(?:(?:of|is|=)\W{0,3})?([1-5])\b`)
	reasoningRE   = regexp.MustCompile(`(?is)reasoning\W{0,8}(.*?)(?:\n[^\n]{0,12}?score|\z)`)
	statusRE      = regexp.MustCompile(`(?i)\bstatus\b\W{0,8}`)
	verdictRE     = regexp.MustCompile(`(?i)\b(success|failure|fail)`)
	thoughtsRE    = regexp.MustCompile(`(?is)thoughts\W{0,8}(.*)`)
)

// parseKeyPoints reads the list after "Key Points:" (or the whole answer
// when it has no such heading), one point a line.
func parseKeyPoints(text string) []string {
	if loc := keyPointsHead.FindStringIndex(text); loc != nil {
		text = text[loc[1]:]
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(listMark.ReplaceAllString(line, ""))
		line = strings.TrimSpace(strings.Trim(line, "*"))
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// parseScore reads a step's score (its last "Score: N"; 0 when there is
// none, as WebJudge counts it) and reasoning.
func parseScore(text string) (int, string) {
	score := 0
	if m := scoreRE.FindAllStringSubmatch(text, -1); len(m) > 0 {
		score, _ = strconv.Atoi(m[len(m)-1][1])
	}
	reason := text
	if m := reasoningRE.FindStringSubmatch(text); m != nil {
		reason = m[1]
	}
	return score, clip(oneLine(strings.Trim(oneLine(reason), "*: ")), maxReason)
}

// parseVerdict reads the verdict as the reference judges read it: the
// first "success" or "failure" after the last "Status:" (any case,
// markdown emphasis, on its own line or at the end of a paragraph), and
// the thoughts before it. ok is false when no "Status:" is followed by a
// verdict.
func parseVerdict(text string) (outcome, reasons string, ok bool) {
	all := statusRE.FindAllStringIndex(text, -1)
	for i := len(all) - 1; i >= 0; i-- {
		at := all[i]
		m := verdictRE.FindStringSubmatch(text[at[1]:])
		if m == nil {
			continue
		}
		outcome = "success"
		if strings.HasPrefix(strings.ToLower(m[1]), "fail") {
			outcome = "failure"
		}
		before := text[:at[0]]
		if t := thoughtsRE.FindStringSubmatch(before); t != nil {
			before = t[1]
		}
		return outcome, strings.Trim(before, "*# \t\n"), true
	}
	return "", "", false
}

func numbered(items []string) string {
	var b strings.Builder
	for i, it := range items {
		fmt.Fprintf(&b, "%d. %s\n", i+1, it)
	}
	return strings.TrimRight(b.String(), "\n")
}

func indent(s string) string {
	return "   " + strings.ReplaceAll(s, "\n", "\n   ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
