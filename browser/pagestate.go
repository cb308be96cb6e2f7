package browser

import (
	"context"
	"fmt"
)

// pageStateJS fingerprints what a person would see change on the page: its
// URL, title and text, the values and states of its form controls, the
// focused element, the scroll position, the places and paints of SVG
// shapes and what canvases show, hashed (53-bit cyrb53).
var pageStateJS = program("pageState")

// PageState returns a fingerprint of the current page: equal pages give
// equal fingerprints. It implements contract.PageStater.
func (b *Browser) PageState(ctx context.Context) (string, error) {
	o, err := b.begin(ctx)
	if err != nil {
		return "", err
	}
	defer o.end()
	// A failure is not looked into here (a dead tab or browser is brought
	// back by the next action or snapshot, under its own budget).
	var s string
	if err := o.evalValue(jsCall(pageStateJS), &s); err != nil {
		return "", fmt.Errorf("browser: page state: %w", err)
	}
	return s, nil
}
