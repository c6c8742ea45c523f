package outbox_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tenger/internal/notify"
	"tenger/internal/notify/notifytest"
	"tenger/internal/notify/outbox"
)

func TestContract(t *testing.T) {
	notifytest.Run(t, notifytest.Harness{Open: func(t *testing.T, dir string) notifytest.Outbox {
		o, err := outbox.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}})
}

// TestTornLineAfterCrash: a crash in the middle of a write leaves a partial
// last line; reopening skips it and later entries are still readable.
func TestTornLineAfterCrash(t *testing.T) {
	dir := t.TempDir()
	o, err := outbox.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := o.Send(ctx, notify.Message{Channel: notify.ChannelSMS, To: "+97688000001", Code: "000001"}); err != nil {
		t.Fatal(err)
	}
	_ = o.Close()
	f, err := os.OpenFile(filepath.Join(dir, outbox.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"to":"+9768800`)
	_ = f.Close()
	o, err = outbox.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := o.Send(ctx, notify.Message{Channel: notify.ChannelSMS, To: "+97688000002", Code: "000002"}); err != nil {
		t.Fatal(err)
	}
	_ = o.Close()
	o, err = outbox.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	es, _ := o.List(ctx)
	if len(es) != 2 || es[0].Code != "000001" || es[1].Code != "000002" {
		t.Fatalf("entries after a torn line: %+v", es)
	}
}
