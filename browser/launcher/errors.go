package launcher

// ConfigError is a browser that could not be started or reached because of
// how it was configured: a Chromium binary that does not start, a profile
// folder another browser holds, a DevTools address where nothing answers.
// Retrying does not help; the configuration must change. Its message says
// what is wrong and how to fix it, without CDP jargon; Err keeps the
// underlying cause for logs. Package browser returns it as
// browser.ConfigError.
type ConfigError struct {
	// Problem says what is wrong, e.g. "nothing answers at http://…".
	Problem string
	// Fix says what to do about it.
	Fix string
	// Err is the cause as it was reported.
	Err error
}

func (e *ConfigError) Error() string { return "browser: " + e.Problem + "; " + e.Fix }

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.Err }
