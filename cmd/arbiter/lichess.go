package main

import (
	"os"

	"arbiter"
	"arbiter/app"
	"arbiter/lichess"
)

// gameSource is the Lichess client result verification uses: baseURL from
// --lichess-url (lichess.org in production, an httptest server in tests),
// with the optional token in $LICHESS_TOKEN.
func gameSource(baseURL string) (app.GameSource, error) {
	c, err := lichessClient(baseURL)
	if err != nil {
		return nil, err
	}
	return app.LichessGames{Client: c}, nil
}

// lichessClient is the Lichess API client at baseURL ($LICHESS_TOKEN:
// optional API token): the game source of result verification and the
// account source of eligibility checks.
func lichessClient(baseURL string) (*lichess.Client, error) {
	c, err := lichess.New(lichess.Options{BaseURL: baseURL, Token: os.Getenv("LICHESS_TOKEN")})
	if err != nil {
		return nil, &arbiter.Error{Code: arbiter.EINVALID, Field: "--lichess-url", Message: "cannot use " + baseURL + " as Lichess's address: want an absolute http(s) URL", Err: err}
	}
	return c, nil
}
