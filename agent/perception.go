package agent

// Tools that read more of the page than the snapshot shows.
const (
	// ActBox gives the box of an element (Action.Ref) in CSS pixels of the
	// viewport, to aim a pointer action at a point.
	ActBox = "box"
	// ActReadRegion returns the whole text of a region the snapshot folded
	// to fit its budget; Action.Ref holds the region's handle (r3).
	ActReadRegion = "read_region"
)
