package agent

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// waitSlack is what the wait tool's budget adds to the time asked for, so
// that the wait itself, not its budget, ends it.
const waitSlack = time.Second

// addItem stores one item of a list argument where it belongs.
func (c *call) addItem(k, v string) {
	switch k {
	case "files":
		c.action.Files = append(c.action.Files, v)
	case "add":
		c.action.Options = append(c.action.Options, v)
	case "remove":
		c.action.Remove = append(c.action.Remove, v)
	}
}

// setPointer stores the pointer and offset arguments: x and y, to_x and
// to_y, start and end, and the points of mouse_path.
func (c *call) setPointer(ints map[string]int, args map[string]any) error {
	pair := func(xk, yk string) (*Point, error) {
		x, hx := ints[xk]
		y, hy := ints[yk]
		switch {
		case !hx && !hy:
			return nil, nil
		case hx != hy:
			return nil, fmt.Errorf("%s needs both %s and %s", c.action.Name, xk, yk)
		}
		return &Point{X: float64(x), Y: float64(y)}, nil
	}
	var err error
	if c.action.At, err = pair("x", "y"); err != nil {
		return err
	}
	if c.action.To, err = pair("to_x", "to_y"); err != nil {
		return err
	}
	if c.action.At != nil && c.action.Ref != "" {
		return fmt.Errorf("%s takes either a ref (with anchor, dx, dy) or x and y, not both", c.action.Name)
	}
	if c.action.To != nil && c.action.ToRef != "" {
		return fmt.Errorf("%s takes either to_ref or to_x and to_y, not both", c.action.Name)
	}
	for _, k := range []string{"start", "end"} {
		if v, ok := ints[k]; ok {
			if v < 0 {
				return fmt.Errorf("%s must not be negative", k)
			}
			if k == "start" {
				c.action.Start = &v
			} else {
				c.action.End = &v
			}
		}
	}
	if _, ok := args["points"]; ok || c.action.Name == ActMousePath {
		if c.action.Path, err = parsePoints(c.points); err != nil {
			return err
		}
	}
	return nil
}

// parsePoints parses "10,20 30,40": x,y pairs separated by spaces (or
// semicolons).
func parsePoints(s string) ([]Point, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ';' || r == '\t' || r == '\n' })
	var out []Point
	for _, f := range fields {
		f = strings.Trim(f, "()[]")
		xs, ys, ok := strings.Cut(f, ",")
		x, errx := strconv.ParseFloat(strings.TrimSpace(xs), 64)
		y, erry := strconv.ParseFloat(strings.TrimSpace(ys), 64)
		if !ok || errx != nil || erry != nil {
			return nil, fmt.Errorf("point %q is not x,y: give points as x,y pairs separated by spaces, e.g. \"10,20 60,20 60,70\"", f)
		}
		out = append(out, Point{X: x, Y: y})
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("points needs at least two x,y points separated by spaces, e.g. \"10,20 60,20\"")
	}
	return out, nil
}
