// Package botauth gives an agent a signed identity on the web: Web Bot
// Auth (draft-ietf-webbotauth-httpsig-protocol), HTTP Message Signatures
// (RFC 9421) made with the operator's Ed25519 key on every request, and the
// key directory (draft-meunier-webbotauth-httpsig-directory) a site reads
// to know the key.
//
// # Keys
//
// A Key is an Ed25519 private key, read by LoadKey from a file that only
// its owner may read: PKCS#8 PEM, as `openssl genpkey -algorithm ed25519`
// writes it, or an OKP JSON Web Key. NewKeyFile writes a new one. A Key
// never prints its private part: its String, GoString, Format and
// MarshalJSON show the thumbprint only, so a Key in a log, a trace or a
// result says which key it is and nothing more. Thumbprint is the RFC 7638
// JWK thumbprint, the keyid of every signature.
//
// # Signatures
//
// A Signer makes the headers of one request (Signer.Sign): Signature-Input
// and Signature labelled sig1, covering "@authority" (and the
// Signature-Agent header when the signer names one), with created, a short
// expires (DefaultExpiry), keyid, alg="ed25519", a fresh 64-byte nonce and
// tag="web-bot-auth". Signature-Agent, when set, is the https URL of the
// operator's key directory, sent in the draft's dictionary form
// (agent1="https://…") and covered by the signature.
//
// # The directory
//
// Directory is the public JWKS of keys; DirectoryHandler serves it at
// DirectoryPath with its media type and the response signature the
// directory draft asks for (tag "http-message-signatures-directory",
// covering "@authority";req), so that a gate can check that whoever serves
// the directory holds the key.
package botauth
