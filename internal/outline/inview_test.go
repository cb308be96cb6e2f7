package outline

import (
	"reflect"
	"testing"
)

// TestInViewRoundTrip: the in-view line is read back from an observation
// whole, covered refs included, and the observation without it is as it
// was; an observation without the line has no spots.
func TestInViewRoundTrip(t *testing.T) {
	spots := []Spot{{Ref: "e1", X: 175, Y: 115}, {Ref: "e9", Covered: true}, {Ref: "e12", X: 3, Y: 700}}
	obs := "Observation, step 2.\nSnapshot:\nbutton \"Go\" [ref=e1]\n<<<end page>>>"
	line := InViewLine(1280, 900, spots)
	if w, h := InViewScreen(obs + "\n\n" + line); w != 1280 || h != 900 {
		t.Errorf("screen %dx%d, want 1280x900", w, h)
	}
	rest, got := CutInView(obs + "\n\n" + line + "\n")
	if rest != obs {
		t.Errorf("rest = %q, want %q", rest, obs)
	}
	want := map[string]Spot{"e1": spots[0], "e9": spots[1], "e12": spots[2]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spots = %v, want %v", got, want)
	}
	if rest, got := CutInView(obs); rest != obs || got != nil {
		t.Errorf("without the line: %q %v", rest, got)
	}
	if InViewLine(1280, 900, nil) != "" {
		t.Error("no spots gave a line")
	}
}
