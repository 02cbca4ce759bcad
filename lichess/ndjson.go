package lichess

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
)

// stream performs req and yields one decoded T per NDJSON line, reading
// the body line by line (never the whole body). Empty lines are Lichess's
// keep-alives and are skipped. Iteration ends at the end of the body, at
// the first error (yielded once, with a zero T), or when the caller stops;
// the request slot is released in every case.
func stream[T any](ctx context.Context, c *Client, req request) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		resp, err := c.do(ctx, req)
		if err != nil {
			yield(zero, err)
			return
		}
		defer c.release()
		defer resp.Body.Close()
		for v, err := range decodeNDJSON[T](resp.Body) {
			if err != nil && ctx.Err() != nil {
				err = ctx.Err()
			} else if err != nil {
				err = &BadResponseError{Method: req.method, Path: req.path, Err: err}
			}
			if !yield(v, err) || err != nil {
				return
			}
			if ctx.Err() != nil {
				yield(zero, ctx.Err())
				return
			}
		}
	}
}

// decodeNDJSON yields the values of r's NDJSON lines; a line that is not a
// valid T stops the sequence with an error naming the line number.
func decodeNDJSON[T any](r io.Reader) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		br := bufio.NewReader(r)
		for line := 1; ; line++ {
			b, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(b)) > 0 {
				var v T
				if derr := json.Unmarshal(b, &v); derr != nil {
					var zero T
					yield(zero, fmt.Errorf("ndjson line %d: %w", line, derr))
					return
				}
				if !yield(v, nil) {
					return
				}
			}
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var zero T
				yield(zero, fmt.Errorf("ndjson line %d: %w", line, err))
				return
			}
		}
	}
}
