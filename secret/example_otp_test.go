package secret_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/webagent/webagent/secret"
)

// A sign-in code as a secret: the secret otp given as "totp:KEY" (or an
// otpauth:// URI) lets the model type <secret>otp</secret>, which becomes
// the code valid at that moment. ParseOTP checks such a value first; Code
// is the code at a given time (here RFC 6238's first test vector).
func ExampleParseOTP() {
	o, err := secret.ParseOTP("otpauth://totp/Bank:ann?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8")
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Algorithm(), o.Digits(), o.Period(), o.Code(time.Unix(59, 0)))

	_, err = secret.ParseOTP("totp:!!!")
	var bad *secret.OTPError
	fmt.Println(errors.As(err, &bad), bad.Problem)
	// Output:
	// SHA1 8 30s 94287082
	// true the key is not base32: character 1 is not a letter A-Z or a digit 2-7
}
