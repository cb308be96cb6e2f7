package botauth

import (
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/webagent/webagent/testfixture/sigcheck"
)

// vector is one entry of Cloudflare's architecture test vectors.
type vector struct {
	Key             json.RawMessage `json:"key"`
	TargetURL       string          `json:"target_url"`
	CreatedMS       int64           `json:"created_ms"`
	ExpiresMS       int64           `json:"expires_ms"`
	Nonce           string          `json:"nonce"`
	Label           string          `json:"label"`
	Signature       string          `json:"signature"`
	SignatureInput  string          `json:"signature_input"`
	SignatureAgent  string          `json:"signature_agent"`
	SignatureAgentK string          `json:"signature_agent_key"`
}

func readVectors(t *testing.T, file string) []vector {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	var ed []vector
	for _, v := range vs {
		var k struct{ Kty string }
		_ = json.Unmarshal(v.Key, &k)
		if k.Kty == "OKP" {
			ed = append(ed, v)
		}
	}
	if len(ed) < 2 {
		t.Fatalf("%s: %d Ed25519 vectors", file, len(ed))
	}
	return ed
}

// TestVectors: the published Ed25519 vectors verify with the test's own
// verifier, and the signer, given a vector's time and nonce, writes the
// vector's headers byte for byte (the current draft's form, v2).
func TestVectors(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"testdata/architecture_v1.json", "testdata/architecture_v2.json"} {
		for _, v := range readVectors(t, file) {
			key, err := ParseKey(v.Key)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			h := http.Header{}
			h.Set("Signature-Input", v.SignatureInput)
			h.Set("Signature", v.Signature)
			if v.SignatureAgent != "" {
				h.Set("Signature-Agent", v.SignatureAgent)
			}
			ver := sigcheck.Verifier{
				Keys: map[string]ed25519.PublicKey{key.Thumbprint(): key.Public()},
				Now:  func() time.Time { return time.UnixMilli(v.CreatedMS) },
			}
			got, err := ver.Headers("example.com", h)
			if err != nil {
				t.Errorf("%s %s: the vector does not verify: %v", file, v.Label, err)
				continue
			}
			if v.SignatureAgent != "" && got.Agent != "https://signature-agent.test" {
				t.Errorf("%s %s: agent %q", file, v.Label, got.Agent)
			}
			if file != "testdata/architecture_v2.json" {
				continue // the older draft's bare Signature-Agent is not written any more
			}
			s, err := NewSigner(key, SignerOptions{SignatureAgent: agentOf(v)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Label == "sig2" { // the vectors name a signature with an agent sig2, its member agent2
				s.label, s.agentKey = "sig2", "agent2"
			}
			out := s.sign("example.com", signParams{created: v.CreatedMS / 1000, expires: v.ExpiresMS / 1000, nonce: v.Nonce})
			if out.Get("Signature-Input") != v.SignatureInput || out.Get("Signature") != v.Signature ||
				out.Get("Signature-Agent") != v.SignatureAgent {
				t.Errorf("%s %s: headers\n%v\nwant\n%s\n%s\n%s", file, v.Label, out, v.SignatureInput, v.Signature, v.SignatureAgent)
			}
		}
	}
}

func agentOf(v vector) string {
	if v.SignatureAgent == "" {
		return ""
	}
	return "https://signature-agent.test"
}
