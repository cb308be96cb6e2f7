package botauth

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// DirectoryPath is where a Signature-Agent's origin serves its key
// directory.
const DirectoryPath = "/.well-known/http-message-signatures-directory"

// DirectoryMediaType is the directory's Content-Type.
const DirectoryMediaType = "application/http-message-signatures-directory+json"

// directoryTag is the tag of a directory response's signature.
const directoryTag = "http-message-signatures-directory"

// Directory is the public key directory (a JWKS) of keys:
// {"keys":[{"kty":"OKP","crv":"Ed25519","x":…,"kid":…}]}.
func Directory(keys ...*Key) []byte {
	jwks := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		jwks[i] = k.PublicJWK()
	}
	b, _ := json.Marshal(struct {
		Keys []json.RawMessage `json:"keys"`
	}{jwks})
	return b
}

// DirectoryHandler serves the directory of keys at DirectoryPath (other
// paths are 404) with DirectoryMediaType and, for each key, a response
// signature labelled binding0, binding1, … covering the request's
// authority ("@authority";req), tagged "http-message-signatures-directory",
// valid for expiry (DefaultExpiry if zero).
func DirectoryHandler(expiry time.Duration, keys ...*Key) http.Handler {
	if expiry <= 0 {
		expiry = DefaultExpiry
	}
	body := Directory(keys...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != DirectoryPath {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		now := time.Now()
		authority := Authority(r.URL)
		if r.Host != "" {
			authority = hostAuthority(r)
		}
		h := w.Header()
		for i, k := range keys {
			in, sig := directorySignature(k, fmt.Sprintf("binding%d", i), authority, now.Unix(), now.Add(expiry).Unix())
			h.Add("Signature-Input", in)
			h.Add("Signature", sig)
		}
		h.Set("Content-Type", DirectoryMediaType)
		h.Set("Cache-Control", "max-age="+strconv.Itoa(int(expiry/time.Second)))
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodGet {
			_, _ = w.Write(body)
		}
	})
}

// hostAuthority is the authority a request was sent to, from its Host
// header (scheme's default port left out).
func hostAuthority(r *http.Request) string {
	u := *r.URL
	u.Host = r.Host
	u.Scheme = "http"
	if r.TLS != nil {
		u.Scheme = "https"
	}
	return Authority(&u)
}

// directorySignature signs a directory response to a request for
// authority with k, under label.
func directorySignature(k *Key, label, authority string, created, expires int64) (input, signature string) {
	params := `("@authority";req)` +
		";created=" + strconv.FormatInt(created, 10) +
		";keyid=" + sfString(k.kid) +
		`;alg="ed25519"` +
		";expires=" + strconv.FormatInt(expires, 10) +
		";tag=" + sfString(directoryTag)
	base := `"@authority";req: ` + authority + "\n" + `"@signature-params": ` + params
	sig := k.sign([]byte(base))
	return label + "=" + params, label + "=:" + base64.StdEncoding.EncodeToString(sig) + ":"
}
