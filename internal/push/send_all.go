package push

import (
	"context"
	"errors"
	"sync"
)

// SendAll posts msg to every connection of ids through send, at most
// concurrency at a time. It returns how many got it and which were found
// gone (send answered ErrGone); any other failure is counted out, and the
// first is returned after every other connection got the message. The
// AWS fan-out's publishes and the stream function's private messages both
// deliver with it.
func SendAll(ctx context.Context, send func(ctx context.Context, connID string, msg []byte) error,
	ids []string, msg []byte, concurrency int) (delivered int, gone []string, firstErr error) {
	if concurrency < 1 {
		concurrency = 1
	}
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, concurrency)
	)
	for _, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			err := send(ctx, id, msg)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				delivered++
			case errors.Is(err, ErrGone):
				gone = append(gone, id)
			case firstErr == nil:
				firstErr = err
			}
		}()
	}
	wg.Wait()
	return delivered, gone, firstErr
}
