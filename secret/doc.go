// Package secret keeps the credentials a task may use out of the model's
// view, the logs, traces and results, and puts them into the browser only
// where they belong.
//
// # Names and origins
//
// A secret is given as a key and a value. The key is NAME or NAME@ORIGIN
// (ParseKey): the name is letters, digits, '_', '.' and '-'; the origin,
// scheme://host[:port] of an http or https URL, is the site the secret may
// be typed on; one name may be bound to several origins, with one value.
// A key without an origin is bound, in a Set, to the origin of the
// task's start URL (New), and to no site when there is none. The model
// only ever sees the names (Set.Names, Set.PromptNames).
//
// # Filling
//
// The model writes the placeholder <secret>NAME</secret>. Set.Fill (and
// Masker.Fill, for front ends other than the agent's loop) replaces it by
// the value only in the text of a type action, and sets the action's
// Origins: the browser types it only into a field of a page on one of
// them. A placeholder anywhere else (a URL, an option, another tool), a
// secret bound to no site, or secrets bound to different sites typed
// together are refused with a *contract.ActionError that names the
// secret, never its value.
//
// # Masking
//
// Set.Mask, Masker.Mask and Masker.Writer replace a value by its
// placeholder in every form it can take on its way back from a page: raw,
// URL-encoded (form and percent encoding, either hex case, any mix of
// escaped and plain characters), HTML entities, JSON string escapes, and
// base64 and base64url at any alignment inside a longer text.
//
// # Sign-in codes
//
// A value totp:BASE32KEY or otpauth://totp/LABEL?secret=KEY (IsOTP) is a
// generator of the time-based one-time passwords of an authenticator app
// (RFC 6238; ParseOTP reads it, an *OTPError says what is wrong and how
// to write it). Filling its placeholder types the code valid at that
// moment (OTP.Now). The key is masked like any value, and every code
// typed in the process, with the codes of the periods either side of it,
// is masked by every Set and Masker holding the same generator, as a
// number of its own: a longer number that holds its digits, and codes
// never typed, stay readable.
package secret
