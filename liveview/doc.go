// Package liveview lets a person watch a run as it happens, answer its
// questions and take the browser over between its steps: a page served by
// webagent's own net/http server (no build step, no third-party script),
// one per run or browser session (a [View]), reached with a URL that
// carries a random token.
//
// A View shows the current tab's screen (the browser's screencast,
// [contract.Screencaster]: one per tab, shared by every viewer, each of
// whom gets the newest frame and drops the ones it could not take in
// time; none while no one watches), the steps as they end (tool calls,
// outcomes, the model's words), the watchdog's iteration and the time
// left in its bound, the agent's pending question with its buttons, and
// the result. It is an [agent.Observer], an [agent.Human] and an
// [agent.Confirmer], so questions are answered there through the same
// path as on a terminal.
//
// # Control
//
// Its [Lease] is an [agent.Control]: "Take over" is granted at the loop's
// next step boundary and the agent acts again only once the person hands
// back (or was idle past the idle bound, which hands back for them). A
// grant has a key (an epoch and a random part) that the page keeps, so
// control survives a reconnect, and input naming another key is refused.
// A person's input reaches the page as trusted input; the browser's own
// limits (where pages may go, read-only, the egress) hold for it as for
// the agent. What the person does is recorded element by element when the
// browser can name it ([contract.PersonRecorder]): a click on a control,
// the text a field held when they left it, a choice in a select, Enter or
// Escape ([agent.Handback] Actions). The loop keeps them as the takeover
// step's calls, the text only by the name of the secret that masks it,
// which is how a takeover is saved as a routine (package routine).
//
// # Tokens
//
// Each View has two tokens of 128 random bits, one that only watches and
// one that also answers and controls. They end with the View, can be
// revoked ([View.Revoke]) and expire after Options.TokenTTL. A request
// without a token gets 401, one with a wrong, revoked or expired token 403,
// and neither changes anything; the WebSocket refuses another origin. The
// tokens appear in no log line of this package; the URLs are for the
// person (printed by the command), never for the model.
//
// A Server listens on loopback unless told otherwise; another address
// needs TLS files ([Config]).
package liveview
