package lichess

// Event types of the account event stream (GET /api/stream/event). Arbiter
// does not open that stream yet; these types let the code that will (bot
// or board play on behalf of a TD) decode gameStart and gameFinish lines.
const (
	EventGameStart  = "gameStart"
	EventGameFinish = "gameFinish"
)

// Event is one line of the event stream. Game is set for gameStart and
// gameFinish; other event types (challenge, ...) leave it nil.
type Event struct {
	Type string     `json:"type"`
	Game *EventGame `json:"game"`
}

// EventGame is the game of a gameStart / gameFinish event, seen from the
// token owner's side (Color is the owner's colour).
type EventGame struct {
	ID     string `json:"gameId"`
	FullID string `json:"fullId"` // game id + the owner's player id, for the board API
	Color  string `json:"color"`
	Source string `json:"source"`
	Status struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	} `json:"status"`
	Variant struct {
		Key string `json:"key"`
	} `json:"variant"`
	Speed    string `json:"speed"`
	Perf     string `json:"perf"`
	Rated    bool   `json:"rated"`
	Winner   string `json:"winner"` // gameFinish only; "" for a draw
	Opponent struct {
		ID       string `json:"id"`
		Username string `json:"username"`
		Rating   int    `json:"rating"`
	} `json:"opponent"`
	SecondsLeft int `json:"secondsLeft"`
}
