package liveview_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"image/jpeg"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
)

// A peer beside webagent, measured the same way in one run: agent-browser's
// stream (a WebSocket of the viewport's frames that takes input), set by
// WEBAGENT_PEER_AGENT_BROWSER to its binary. Both are timed from a Go
// client: the press sent, until a frame whose pixel under it flipped is
// received and decoded. go test ./liveview -run XXX -bench PeerInputToFrame

// flipWaiter reads frames from next until the pixel at (x, y) (frame
// pixels) differs from before by more than half the range.
func flipWaiter(next func() ([]byte, error), x, y int, before uint32) (uint32, error) {
	for {
		jp, err := next()
		if err != nil {
			return 0, err
		}
		img, err := jpeg.Decode(bytes.NewReader(jp))
		if err != nil {
			continue
		}
		r, _, _, _ := img.At(x, y).RGBA()
		if d := int(r>>8) - int(before>>8); d > 128 || d < -128 {
			return r, nil
		}
	}
}

func median(ms []float64) (med, p95 float64) {
	slices.Sort(ms)
	return ms[len(ms)/2], ms[(len(ms)*95+99)/100-1]
}

func BenchmarkPeerInputToFrame(b *testing.B) {
	ab := os.Getenv("WEBAGENT_PEER_AGENT_BROWSER")
	if ab == "" {
		b.Skip("set WEBAGENT_PEER_AGENT_BROWSER to agent-browser's binary to measure it beside webagent")
	}
	url := togglePage(b, false)
	const clicks = 25
	b.Run("webagent", func(b *testing.B) {
		srv, err := liveview.Start(liveview.Config{})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close(context.Background())
		v := srv.Open(liveview.Options{})
		br := chrome.Tab(b)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if _, err := br.Do(ctx, contract.Action{Name: contract.ActGoto, URL: url}); err != nil {
			b.Fatal(err)
		}
		v.Attach(br)
		_, control := v.URLs()
		c, _, err := websocket.Dial(ctx, strings.Replace(strings.Replace(control, "http://", "ws://", 1), "?t=", "/ws?t=", 1), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseNow()
		c.SetReadLimit(-1)
		send := func(m any) {
			p, _ := json.Marshal(m)
			if err := c.Write(ctx, websocket.MessageText, p); err != nil {
				b.Fatal(err)
			}
		}
		var key string
		var last []byte
		// read returns the next message's frame, nil for a text message.
		read := func() ([]byte, error) {
			typ, p, err := c.Read(ctx)
			if err != nil {
				return nil, err
			}
			if typ == websocket.MessageBinary {
				n := binary.BigEndian.Uint32(p)
				last = p[4+n:]
				return last, nil
			}
			var m struct {
				Type string
				Data json.RawMessage
			}
			if json.Unmarshal(p, &m) == nil && m.Type == "key" {
				_ = json.Unmarshal(m.Data, &key)
			}
			return nil, nil
		}
		next := func() ([]byte, error) {
			for {
				f, err := read()
				if f != nil || err != nil {
					return f, err
				}
			}
		}
		send(map[string]any{"type": "take"})
		for key == "" || last == nil {
			if _, err := read(); err != nil {
				b.Fatal(err)
			}
		}
		shade, err := shadeNow(func() ([]byte, error) { return last, nil })
		if err != nil {
			b.Fatal(err)
		}
		var ms []float64
		for i := range clicks {
			x, y := float64(100+i*30), 50.0
			t0 := time.Now()
			send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputMouseDown, X: x, Y: y, Button: "left", Clicks: 1}})
			send(map[string]any{"type": "input", "key": key, "input": contract.PersonInput{Kind: contract.InputMouseUp, X: x, Y: y, Button: "left", Clicks: 1}})
			if shade, err = flipWaiter(next, int(x), int(y), shade); err != nil {
				b.Fatal(err)
			}
			ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
		}
		med, p95 := median(ms)
		b.ReportMetric(med, "ms-median")
		b.ReportMetric(p95, "ms-p95")
	})
	b.Run("agent-browser", func(b *testing.B) {
		session := "lvbench" + strings.ReplaceAll(time.Now().Format("150405.000"), ".", "")
		run := func(args ...string) string {
			cmd := exec.Command(ab, append([]string{"--session", session}, args...)...)
			cmd.Env = append(os.Environ(), "AGENT_BROWSER_EXECUTABLE_PATH=/usr/bin/chromium")
			out, err := cmd.CombinedOutput()
			if err != nil {
				b.Fatalf("agent-browser %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		run("open", url)
		defer run("close")
		run("set", "viewport", "1280", "900")
		var st struct{ Data struct{ Port int } }
		if err := json.Unmarshal([]byte(run("stream", "status", "--json")), &st); err != nil || st.Data.Port == 0 {
			b.Fatalf("agent-browser's stream port: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		c, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(st.Data.Port), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseNow()
		c.SetReadLimit(-1)
		next := func() ([]byte, error) {
			for {
				_, p, err := c.Read(ctx)
				if err != nil {
					return nil, err
				}
				var m struct{ Type, Data string }
				if json.Unmarshal(p, &m) == nil && m.Type == "frame" {
					return base64.StdEncoding.DecodeString(m.Data)
				}
			}
		}
		send := func(m any) {
			p, _ := json.Marshal(m)
			if err := c.Write(ctx, websocket.MessageText, p); err != nil {
				b.Fatal(err)
			}
		}
		shade, err := shadeNow(next)
		if err != nil {
			b.Fatal(err)
		}
		var ms []float64
		for i := range clicks {
			x, y := 100+i*30, 50
			t0 := time.Now()
			send(map[string]any{"type": "input_mouse", "eventType": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1})
			send(map[string]any{"type": "input_mouse", "eventType": "mouseReleased", "x": x, "y": y, "button": "left", "clickCount": 1})
			if shade, err = flipWaiter(next, x, y, shade); err != nil {
				b.Fatal(err)
			}
			ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
		}
		med, p95 := median(ms)
		b.ReportMetric(med, "ms-median")
		b.ReportMetric(p95, "ms-p95")
	})
}

// shadeNow is the pixel at (0, 0) of the next frame: the whole screen's
// shade, since the page turns all of it at once.
func shadeNow(next func() ([]byte, error)) (uint32, error) {
	for {
		jp, err := next()
		if err != nil {
			return 0, err
		}
		if img, err := jpeg.Decode(bytes.NewReader(jp)); err == nil {
			r, _, _, _ := img.At(0, 0).RGBA()
			return r, nil
		}
	}
}
