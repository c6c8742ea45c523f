package embedded

import (
	"context"
	"strconv"
)

// Head returns the checkpoint of the newest durable change: Read from it
// returns only the changes committed afterwards. A consumer that only
// cares about what happens from now on (the private WebSocket updates of
// `tenger serve`) starts there instead of reading the retained history,
// and jumps there again while nobody is listening.
func (f feed) Head(ctx context.Context) (string, error) {
	s := f.s
	if err := s.enter(ctx); err != nil {
		return "", err
	}
	defer s.closeMu.RUnlock()
	return strconv.FormatUint(s.seqs.durable.Load(), 10), nil
}
