package browser

import "context"

// coverageJS counts the visible interactive elements of the page (the
// benchmark's definition: a DOM query, a box with an area, not hidden by
// CSS), through open shadow roots and same-origin frames, and how many of
// them the latest snapshot shows with a ref. It lists a few it missed.
var coverageJS = program("coverage")

// Coverage is the result of CheckCoverage.
type Coverage struct {
	Interactive int      // visible interactive elements
	Covered     int      // how many of them the latest snapshot gave a ref
	Missed      []string // the start of the HTML of a few that it did not
}

// CheckCoverage counts the visible interactive elements of the current page
// (a, button, input but hidden ones, select, textarea, [role=button],
// [role=link], [onclick], [contenteditable=true] and summary elements with a
// box of non-zero area, not hidden by CSS), through open shadow roots and
// same-origin frames, and how many of them the latest snapshot showed with a
// ref. The benchmark uses it.
func (b *Browser) CheckCoverage(ctx context.Context) (Coverage, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return Coverage{}, err
	}
	defer o.end()
	var c Coverage
	err = o.evalValue(jsCall(coverageJS), &c)
	if err == nil {
		var fc Coverage
		fc, err = o.frameCoverage()
		c.Interactive += fc.Interactive
		c.Covered += fc.Covered
		c.Missed = append(c.Missed, fc.Missed...)
	}
	return c, o.fail("coverage", err)
}

// frameCoverage runs the coverage count in the attached frames of the
// latest snapshot.
func (o *op) frameCoverage() (Coverage, error) {
	b := o.b
	var total Coverage
	for id, fr := range b.snap.frames.m {
		if _, ok := b.snap.frames.seen[id]; !ok {
			continue
		}
		var c Coverage
		if err := o.evalIn(fr, jsCall(coverageJS), &c); err != nil {
			return total, err
		}
		total.Interactive += c.Interactive
		total.Covered += c.Covered
		total.Missed = append(total.Missed, c.Missed...)
	}
	return total, nil
}
