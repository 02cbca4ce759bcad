package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"arbiter"
	"arbiter/app"
	"arbiter/lichess"
)

// gameSource is the Lichess client result verification uses: baseURL from
// --lichess-url (lichess.org in production, an httptest server in tests),
// with the optional token in $LICHESS_TOKEN.
func gameSource(baseURL string) (app.GameSource, error) {
	c, err := lichessClient(baseURL, os.Getenv("LICHESS_TOKEN"))
	if err != nil {
		return nil, err
	}
	return app.LichessGames{Client: c}, nil
}

// lichessMinInterval is the least time between two requests of one
// client; 0 is the lichess package's default, one request a second, as
// Lichess asks. Only this package's tests shorten it: their fake Lichess
// has no limit, and a 'jobs run' whose two jobs each fetched an account
// otherwise waited a second (the spacing is tested in package lichess).
var lichessMinInterval time.Duration

// lichessClient is the Lichess API client at baseURL sending token (the
// organiser's; "" for anonymous requests): the game source of result
// verification and the account source of eligibility checks.
func lichessClient(baseURL, token string) (*lichess.Client, error) {
	c, err := lichess.New(lichess.Options{BaseURL: baseURL, Token: token, MinInterval: lichessMinInterval})
	if err != nil {
		return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: "--lichess-url", Message: "cannot use " + baseURL + " as Lichess's address: want an absolute http(s) URL", Err: err}
	}
	return c, nil
}

// organiserToken is the organiser's Lichess token: the first line of
// --lichess-token-file, else $LICHESS_TOKEN, else "" (none).
func organiserToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv("LICHESS_TOKEN")), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", &arbiter.Error{Code: arbiter.EINVALID, Field: "--lichess-token-file", Message: "cannot read the organiser's Lichess token: " + err.Error(), Err: err}
	}
	tok, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if tok = strings.TrimSpace(tok); tok == "" {
		return "", &arbiter.Error{Code: arbiter.EINVALID, Field: "--lichess-token-file", Message: file + " holds no token"}
	}
	return tok, nil
}

// checkOrganiser tests the organiser's token at start (POST
// /api/token/test) and logs its owner, scopes and each feature a missing
// scope turns off. A token Lichess refuses stops the start; Lichess out
// of reach does not (the scopes are then unknown). No token: nil.
func checkOrganiser(ctx context.Context, c *lichess.Client, token string, log *slog.Logger) (*lichess.Organiser, error) {
	if token == "" {
		log.Info("no organiser's Lichess token: games, messages and bulk pairing on Lichess are off (give --lichess-token-file or $LICHESS_TOKEN)")
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	org, err := lichess.CheckOrganiser(ctx, c, token, time.Now())
	if errors.Is(err, lichess.ErrTokenInvalid) {
		return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: "--lichess-token-file",
			Message: "Lichess does not accept the organiser's token (revoked, expired or mistyped): make a new one at https://lichess.org/account/oauth/token", Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("checking the organiser's Lichess token: %w", err)
	}
	if org.Unchecked != "" {
		log.Warn("organiser's Lichess token not checked", slog.String("why", org.Unchecked))
		return org, nil
	}
	log.Info("organiser's Lichess token", slog.String("user", org.UserID), slog.String("scopes", strings.Join(org.Scopes, ",")))
	for _, f := range org.Features() {
		if !f.Enabled {
			log.Warn(f.Disabled, slog.String("feature", f.Key), slog.String("missing_scope", f.Scope))
		}
	}
	return org, nil
}
