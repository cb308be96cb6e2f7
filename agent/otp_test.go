package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/webagent/webagent/agent"
	"github.com/webagent/webagent/modelserver"
	"github.com/webagent/webagent/secret"
)

// rfcKey is the base32 of the ASCII key 12345678901234567890 (RFC 6238's
// SHA1 key).
const rfcKey = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

// A run given a malformed generator ends before it starts, with the
// *OTPError in Result.Err and never the key in the message; the model is
// not asked.
func TestRunRefusesMalformedOTP(t *testing.T) {
	model, srv := newModel(t, modelserver.Script(done("never")))
	a := mustAgent(t, shared, model)
	res := a.Run(context.Background(), agent.Task{URL: "http://127.0.0.1:1/", Instruction: "type <secret>otp</secret>",
		Secrets: map[string]string{"otp": "otpauth://totp/x?secret=" + rfcKey + "&algorithm=MD5"}})
	var oe *secret.OTPError
	if res.Code != agent.CodeAgentFailed || !errors.As(res.Err, &oe) || !strings.Contains(res.Message, "secret otp: the algorithm \"MD5\"") {
		t.Errorf("%s: %s (%v)", res.Code, res.Message, res.Err)
	}
	if strings.Contains(res.Message, rfcKey) || len(srv.Requests()) > 0 {
		t.Errorf("the message holds the key, or the model was asked (%d requests)", len(srv.Requests()))
	}
}
