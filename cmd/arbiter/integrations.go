package main

import (
	"flag"
	"log/slog"

	"arbiter"
	"arbiter/app"
	"arbiter/challonge"
)

// integrationFlags are the flags of the outgoing connections besides
// Lichess, shared by serve and jobs run: the Challonge API key and
// whether webhooks may reach private addresses (docs/exports.md).
type integrationFlags struct {
	challongeKeyFile *string
	challongeURL     *string
	allowPrivate     *bool
}

func addIntegrationFlags(fs *flag.FlagSet) *integrationFlags {
	return &integrationFlags{
		challongeKeyFile: fs.String("challonge-key-file", "", "file holding the Challonge API key for the pushes of knockout brackets (default $CHALLONGE_API_KEY; none: pushes fail saying so)"),
		challongeURL:     fs.String("challonge-url", challonge.DefaultBaseURL, "Challonge's API address (a fake for tests)"),
		allowPrivate:     fs.Bool("webhooks-allow-private", false, "let webhooks go to loopback and private addresses (a receiver on this machine or network); off, such URLs are refused"),
	}
}

// apply configures svc; log (nil: none) is told whether Challonge pushes
// can run. A key file that cannot be read is an error; no key at all is
// not.
func (f *integrationFlags) apply(svc *app.Service, log *slog.Logger) error {
	o := app.IntegrationOptions{WebhooksAllowPrivate: *f.allowPrivate}
	c, err := challongeClient(*f.challongeKeyFile, *f.challongeURL)
	if err != nil {
		return err
	}
	o.Challonge = c
	if log != nil && c == nil {
		log.Info("Challonge: no API key (--challonge-key-file or $" + challonge.KeyEnv + "): knockout brackets are not pushed")
	}
	svc.SetIntegrations(o)
	return nil
}

// challongeClient is a client with the key of file, else of
// $CHALLONGE_API_KEY; nil when neither is given.
func challongeClient(file, baseURL string) (*challonge.Client, error) {
	key, err := challonge.KeyFrom(file)
	if err != nil {
		if file != "" {
			return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: "--challonge-key-file", Message: err.Error(), Err: err}
		}
		return nil, nil
	}
	c := challonge.New(key)
	c.BaseURL = baseURL
	return c, nil
}
