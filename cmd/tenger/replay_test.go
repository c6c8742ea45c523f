package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"tenger/internal/streamreplay"
)

// TestReplayReport: one line per pointer, kept ones with their reason, and
// the count of those not replayed.
func TestReplayReport(t *testing.T) {
	var b bytes.Buffer
	n := report(&b, []streamreplay.Outcome{
		{MessageID: "m1", Records: 3, Replayed: true},
		{MessageID: "m2", Err: streamreplay.ErrGoneFromStream},
		{MessageID: "m3", Err: errors.New("the function failed the batch from record 7")},
	}, false)
	out := b.String()
	if n != 2 || !strings.Contains(out, "m1: 3 records replayed, pointer deleted") ||
		!strings.Contains(out, "m2: kept: streamreplay: the records have left the stream") || !strings.Contains(out, "m3: kept:") {
		t.Fatalf("%d\n%s", n, out)
	}
	b.Reset()
	if n := report(&b, nil, true); n != 0 || !strings.Contains(b.String(), "no pointers") {
		t.Fatalf("empty: %d %s", n, b.String())
	}
}

func TestReplayStreamFlags(t *testing.T) {
	if err := runReplayStream([]string{"--dry-run"}); err == nil || !strings.Contains(err.Error(), "--queue-url and --function") {
		t.Fatalf("missing flags: %v", err)
	}
}
