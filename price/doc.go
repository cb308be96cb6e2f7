// Package price turns a model's token usage into money: a table of
// prices per model (input, cached input and output, in US dollars per
// million tokens), each row dated and sourced.
//
// [Default] is the table webagent ships (prices.yaml in this package,
// embedded); [Load] reads a file in the same format, whose rows a user
// adds or overrides with [Table.Merge]. A file that cannot be used is an
// *[Error] naming the file, the line and what to write instead.
//
// [Table.Lookup] finds a model's row by the name an API takes, also
// behind a provider's prefix (openai/gpt-4.1), with a date suffix
// (gpt-4.1-2025-04-14) or with dots for dashes (claude-sonnet-4.5). A
// model the table does not know has no price: its cost is unknown, never
// zero, and callers show its tokens only.
//
// The format:
//
//	prices:
//	  - model: gpt-4.1          # the model's name, as the API takes it
//	    input: 2.00             # US dollars per million prompt tokens
//	    cached_input: 0.50      # per million prompt tokens read from the provider's cache (default: input)
//	    output: 8.00            # per million completion tokens (reasoning included)
//	    date: 2025-04-14        # when the price was checked (YYYY-MM-DD)
//	    source: https://openai.com/api/pricing/
package price
