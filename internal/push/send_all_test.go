package push

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func TestSendAll(t *testing.T) {
	boom := errors.New("throttled")
	var (
		mu       sync.Mutex
		got      []string
		inFlight atomic.Int32
		peak     atomic.Int32
		release  = make(chan struct{})
	)
	send := func(_ context.Context, id string, msg []byte) error {
		if n := inFlight.Add(1); n > peak.Load() {
			peak.Store(n)
		}
		defer inFlight.Add(-1)
		<-release
		if string(msg) != "m" {
			t.Errorf("%s got %q", id, msg)
		}
		mu.Lock()
		got = append(got, id)
		mu.Unlock()
		switch id {
		case "g1", "g2":
			return ErrGone
		case "e1", "e2":
			return boom
		}
		return nil
	}
	close(release)
	ids := []string{"a", "g1", "b", "e1", "c", "g2", "e2", "d"}
	n, gone, err := SendAll(context.Background(), send, ids, []byte("m"), 3)
	if n != 4 {
		t.Errorf("delivered %d, want 4", n)
	}
	slices.Sort(gone)
	if !slices.Equal(gone, []string{"g1", "g2"}) {
		t.Errorf("gone %v", gone)
	}
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the failure", err)
	}
	if len(got) != len(ids) {
		t.Errorf("sent to %d of %d connections after a failure", len(got), len(ids))
	}
	if peak.Load() > 3 {
		t.Errorf("%d sends at once, limit 3", peak.Load())
	}
	if n, gone, err := SendAll(context.Background(), send, nil, []byte("m"), 0); n != 0 || gone != nil || err != nil {
		t.Errorf("no connections: %d %v %v", n, gone, err)
	}
}
