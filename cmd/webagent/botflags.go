package main

import (
	"flag"
	"os"

	"github.com/webagent/webagent/botauth"
	"github.com/webagent/webagent/browser"
	"github.com/webagent/webagent/contract"
)

// botKeyEnv is the variable --bot-key defaults to.
const botKeyEnv = "WEBAGENT_BOT_KEY"

// botFlags sign the browser's requests (Web Bot Auth): --bot-key,
// --signature-agent and --sign-domains.
type botFlags struct {
	keyFile, agent, domains string
	// set by validate
	signer      *botauth.Signer
	signDomains []contract.DomainPattern
}

func (f *botFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.keyFile, "bot-key", "", "sign every request the browser sends (Web Bot Auth) with this Ed25519 private key, PKCS#8 PEM or JWK, readable by you only "+
		"(default $"+botKeyEnv+"); every signed site learns who operates the agent. Make one with `webagent bot-key new FILE`")
	fs.StringVar(&f.agent, "signature-agent", "", "with --bot-key: the https URL where your key directory is served (`webagent bot-key directory`), sent and signed in each request's Signature-Agent header")
	fs.StringVar(&f.domains, "sign-domains", "", "with --bot-key: sign only requests to these sites (comma-separated, patterns as --allowed-domains); default every site")
}

// validate loads the key and makes the signer; nothing is launched
// before it passes.
func (f *botFlags) validate() error {
	if f.keyFile == "" {
		f.keyFile = os.Getenv(botKeyEnv)
	}
	if f.keyFile == "" {
		switch {
		case f.agent != "":
			return usagef("--signature-agent needs --bot-key (or $%s): the key whose directory it names", botKeyEnv)
		case f.domains != "":
			return usagef("--sign-domains needs --bot-key (or $%s)", botKeyEnv)
		}
		return nil
	}
	key, err := botauth.LoadKey(f.keyFile)
	if err != nil {
		return usagef("--bot-key: %v", err)
	}
	if f.signer, err = botauth.NewSigner(key, botauth.SignerOptions{SignatureAgent: f.agent}); err != nil {
		return usagef("--signature-agent: %v", err)
	}
	if f.signDomains, err = contract.ParseDomainPatterns(f.domains); err != nil {
		return usagef("--sign-domains: %v", err)
	}
	return nil
}

// apply makes the browser sign.
func (f *botFlags) apply(o *browser.Options) {
	if f.signer != nil {
		o.Signer, o.SignDomains = f.signer, f.signDomains
	}
}
