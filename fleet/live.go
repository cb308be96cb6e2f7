package fleet

import (
	"context"
	"crypto/ecdh"
	"crypto/hpke"
	"encoding/json"
	"fmt"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/contract"
	"github.com/webagent/webagent/liveview"
	"github.com/webagent/webagent/secret"
)

// The live view of a task's run (WorkerConfig.Live): a person watches the
// run in a browser, answers its questions and takes it over between its
// steps. The view's URLs carry its tokens, so they never enter Temporal
// as they are: the submitter sends a public key with the task
// (Task.LiveKey), the worker seals the URLs to it (HPKE: X25519,
// HKDF-SHA256, ChaCha20-Poly1305, bound to the workflow id and the
// attempt) and signals the workflow with the sealed bytes, which its live
// query returns. Workflow history, the UI and anyone who may read the
// namespace see the public key and the sealed bytes; only the submitter,
// which holds the private key in memory, reads the URLs (Client.Live).

// liveKEM is the key encapsulation of the sealed URLs.
var liveKEM = hpke.DHKEM(ecdh.X25519())

// LiveKey is a submitter's key for the live views of its task: a worker
// seals their URLs to its public half, and only the holder of this key
// reads them. It lives in memory only.
type LiveKey struct{ priv hpke.PrivateKey }

// NewLiveKey makes a key for one task.
func NewLiveKey() (*LiveKey, error) {
	k, err := liveKEM.GenerateKey()
	if err != nil {
		return nil, fmt.Errorf("fleet: a key for the live view: %w", err)
	}
	return &LiveKey{priv: k}, nil
}

// Public is the key's public half, for Task.LiveKey.
func (k *LiveKey) Public() []byte { return k.priv.PublicKey().Bytes() }

// LiveURLs are the live view of a task's run: View watches, Control also
// answers the run's questions and takes over. They are for the person who
// submitted the task, never for a model or a log.
type LiveURLs struct {
	// Attempt is the run the view shows, Worker the worker it runs on.
	Attempt int    `json:"-"`
	Worker  string `json:"-"`
	View    string `json:"view"`
	Control string `json:"control"`
}

// liveInfo binds sealed URLs to one run of one workflow.
func liveInfo(wid string, attempt int) []byte {
	return fmt.Appendf(nil, "webagent live view\x00%s\x00%d", wid, attempt)
}

// sealLive seals a run's URLs to the submitter's public key.
func sealLive(pub []byte, wid string, attempt int, u LiveURLs) ([]byte, error) {
	pk, err := liveKEM.NewPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("the task's live key: %w", err)
	}
	b, err := json.Marshal(u)
	if err != nil {
		return nil, err
	}
	return hpke.Seal(pk, hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), liveInfo(wid, attempt), b)
}

// open reads URLs sealed for run attempt of workflow wid.
func (k *LiveKey) open(wid string, attempt int, sealed []byte) (*LiveURLs, error) {
	b, err := hpke.Open(k.priv, hpke.HKDFSHA256(), hpke.ChaCha20Poly1305(), liveInfo(wid, attempt), sealed)
	if err != nil {
		return nil, fmt.Errorf("fleet: the live view's URLs are not sealed for this key: %w", err)
	}
	u := &LiveURLs{Attempt: attempt}
	if err := json.Unmarshal(b, u); err != nil {
		return nil, fmt.Errorf("fleet: the live view's URLs: %w", err)
	}
	return u, nil
}

// liveState is what the live query answers: the run in progress and its
// URLs, sealed for the submitter (nil: no view, or no key to seal to).
type liveState struct {
	Attempt int    `json:"attempt"`
	Worker  string `json:"worker,omitempty"`
	Sealed  []byte `json:"sealed,omitempty"`
}

// liveSignal is a run's new sealed URLs (after a viewer revoked the old).
type liveSignal struct {
	Attempt int    `json:"attempt"`
	Sealed  []byte `json:"sealed"`
}

// runView is a task run's live view; nil on a worker without one.
type runView struct {
	v      *liveview.View
	sealed []byte // the URLs sealed for the submitter; nil without its key
}

// openView opens the run's live view, when the worker serves them.
func (w *Worker) openView(wid string, attempt int, t Task, secrets map[string]string) *runView {
	if w.cfg.Live == nil {
		return nil
	}
	seal := func(view, control string) []byte {
		if len(t.LiveKey) == 0 {
			return nil
		}
		b, err := sealLive(t.LiveKey, wid, attempt, LiveURLs{View: view, Control: control})
		if err != nil {
			w.log.Warn("the live view's URLs cannot be sealed for the submitter", "workflow", wid, "error", err)
			return nil
		}
		return b
	}
	rv := &runView{}
	rv.v = w.cfg.Live.Open(liveview.Options{
		Title: "task " + wid,
		Task:  secret.NewMasker(secrets).Mask(t.Instruction),
		Idle:  t.Limits.Effective().HumanTimeout,
		OnRevoke: func(view, control string) {
			b := seal(view, control)
			if b == nil {
				return
			}
			if err := w.signal(context.Background(), wid, signalLive, liveSignal{Attempt: attempt, Sealed: b}); err != nil {
				w.log.Warn("the live view's new URLs did not reach the submitter", "workflow", wid, "error", err)
			}
		},
	})
	rv.sealed = seal(rv.v.URLs())
	w.log.Info("live view opened", "workflow", wid, "attempt", attempt, "sealed_for_submitter", rv.sealed != nil)
	return rv
}

// options are the loop's options of the view: it watches and may take
// over.
func (rv *runView) options() []agent.Option {
	if rv == nil {
		return nil
	}
	return []agent.Option{agent.WithObserver(rv.v), agent.WithControl(rv.v.Lease())}
}

// human is base (the workflow's questions: status and answer) and, with a
// view, the page too, whichever answers first. answered is told when the
// page answered, so that status stops showing the question.
func (rv *runView) human(base agent.Human, answered func()) agent.Human {
	if rv == nil {
		return base
	}
	return eitherHuman{fleet: base, page: rv.v, answered: answered}
}

// attach shows the browser in the view.
func (rv *runView) attach(b contract.Screencaster) {
	if rv != nil {
		rv.v.Attach(b)
	}
}

// detach stops showing the browser, which is about to close.
func (rv *runView) detach() {
	if rv != nil {
		rv.v.Detach()
	}
}

// close shows the result, if any, and ends the view: its URLs stop
// working.
func (rv *runView) close(res *agent.Result) {
	if rv == nil {
		return
	}
	rv.v.Finish(res)
	rv.v.Close()
}

// sealedURLs are the URLs sealed for the submitter; nil without a view.
func (rv *runView) sealedURLs() []byte {
	if rv == nil {
		return nil
	}
	return rv.sealed
}

// eitherHuman asks the workflow (webagent status and answer) and the live
// view's page at once and takes the first answer; the other question
// ends.
type eitherHuman struct {
	fleet, page agent.Human
	answered    func()
}

func (h eitherHuman) Ask(ctx context.Context, question string) (string, error) {
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type got struct {
		text   string
		err    error
		inPage bool
	}
	ch := make(chan got, 2)
	go func() { s, err := h.fleet.Ask(qctx, question); ch <- got{s, err, false} }()
	go func() { s, err := h.page.Ask(qctx, question); ch <- got{s, err, true} }()
	first := <-ch
	if first.err != nil {
		first = <-ch // the other may still answer
		if first.err != nil {
			return "", first.err
		}
	} else {
		cancel()
		<-ch // the other question has ended
	}
	if first.inPage && h.answered != nil {
		h.answered()
	}
	return first.text, nil
}

// Live returns the live view of the task's run in progress, read with k,
// the key whose public half the task was submitted with (Task.LiveKey);
// nil when there is none: no worker runs the task (yet, or any more), or
// its worker serves no live view. A task restarted elsewhere has a new
// view, with new URLs.
func (c *Client) Live(ctx context.Context, id string, k *LiveKey) (*LiveURLs, error) {
	v, err := c.C.QueryWorkflow(ctx, id, "", queryLive)
	if err != nil {
		return nil, c.notFound(id, err)
	}
	var st liveState
	if err := v.Get(&st); err != nil {
		return nil, fmt.Errorf("fleet: the task's live view: %w", err)
	}
	if len(st.Sealed) == 0 {
		return nil, nil
	}
	u, err := k.open(id, st.Attempt, st.Sealed)
	if err != nil {
		return nil, err
	}
	u.Worker = st.Worker
	return u, nil
}
