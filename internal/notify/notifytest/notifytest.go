// Package notifytest is the contract suite of the local notify outbox: what
// is sent is listed (newest last), survives a restart and is served at
// /dev/outbox.
package notifytest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/notify"
	"tenger/internal/notify/outbox"
)

// Outbox is what the suite drives.
type Outbox interface {
	notify.Sender
	http.Handler
	List(ctx context.Context) ([]outbox.Entry, error)
	Close() error
}

// Harness opens the adapter on a directory; opening the same directory
// again must show what was sent before.
type Harness struct {
	Open func(t *testing.T, dir string) Outbox
}

// Run runs the suite.
func Run(t *testing.T, h Harness) {
	t.Run("SendAndList", func(t *testing.T) { testSendAndList(t, h) })
	t.Run("RejectsInvalid", func(t *testing.T) { testInvalid(t, h) })
	t.Run("SurvivesReopen", func(t *testing.T) { testReopen(t, h) })
	t.Run("HTTP", func(t *testing.T) { testHTTP(t, h) })
	t.Run("ConcurrentSends", func(t *testing.T) { testConcurrent(t, h) })
}

func open(t *testing.T, h Harness, dir string) Outbox {
	t.Helper()
	o := h.Open(t, dir)
	t.Cleanup(func() { _ = o.Close() })
	return o
}

func mustSend(t *testing.T, o Outbox, m notify.Message) {
	t.Helper()
	if err := o.Send(context.Background(), m); err != nil {
		t.Fatalf("send to %s: %v", m.To, err)
	}
}

func list(t *testing.T, o Outbox) []outbox.Entry {
	t.Helper()
	es, err := o.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func testSendAndList(t *testing.T, h Harness) {
	o := open(t, h, t.TempDir())
	if es := list(t, o); len(es) != 0 {
		t.Fatalf("new outbox lists %d entries", len(es))
	}
	before := time.Now().Add(-time.Second)
	mustSend(t, o, notify.Message{Channel: notify.ChannelSMS, To: "+97688112233", OperationType: notify.OpWithdraw, Code: "123456"})
	mustSend(t, o, notify.Message{Channel: notify.ChannelEmail, To: "bat@example.mn", OperationType: notify.OpEmail, Code: "654321"})
	mustSend(t, o, notify.Message{Channel: notify.ChannelEmail, To: "bat@example.mn", Subject: "Login from a new device", Text: "Someone signed in."})
	es := list(t, o)
	if len(es) != 3 {
		t.Fatalf("listed %d entries, want 3", len(es))
	}
	sms, mail, notice := es[0], es[1], es[2]
	if sms.To != "+97688112233" || sms.Channel != "sms" || sms.OperationType != 10 || sms.Code != "123456" || !strings.Contains(sms.Text, "123456") {
		t.Fatalf("sms entry %+v", sms)
	}
	if mail.To != "bat@example.mn" || mail.Channel != "email" || mail.OperationType != 17 || mail.Code != "654321" || mail.Subject == "" {
		t.Fatalf("email entry %+v", mail)
	}
	if notice.Subject != "Login from a new device" || notice.Text != "Someone signed in." || notice.Code != "" {
		t.Fatalf("notice entry %+v", notice)
	}
	for i, e := range es {
		if e.SentAt.Before(before) || e.SentAt.After(time.Now().Add(time.Second)) {
			t.Fatalf("entry %d sentAt %v is not now", i, e.SentAt)
		}
		if i > 0 && e.SentAt.Before(es[i-1].SentAt) {
			t.Fatalf("entries not newest last: %v then %v", es[i-1].SentAt, e.SentAt)
		}
	}
}

func testInvalid(t *testing.T, h Harness) {
	o := open(t, h, t.TempDir())
	for _, m := range []notify.Message{
		{Channel: "fax", To: "+97688112233", Code: "1"},
		{Channel: notify.ChannelSMS, To: "88112233", Code: "1"},
		{Channel: notify.ChannelSMS, To: "+976 8811", Code: "1"},
		{Channel: notify.ChannelEmail, To: "not-an-address", Code: "1"},
		{Channel: notify.ChannelEmail, To: "a@b.mn"},
	} {
		if err := o.Send(context.Background(), m); !errors.Is(err, notify.ErrInvalid) {
			t.Fatalf("send %+v: %v, want ErrInvalid", m, err)
		}
	}
	if es := list(t, o); len(es) != 0 {
		t.Fatalf("invalid messages were recorded: %+v", es)
	}
}

func testReopen(t *testing.T, h Harness) {
	dir := t.TempDir()
	o := h.Open(t, dir)
	mustSend(t, o, notify.Message{Channel: notify.ChannelSMS, To: "+97699000001", OperationType: notify.OpAddBank, Code: "111111"})
	mustSend(t, o, notify.Message{Channel: notify.ChannelSMS, To: "+97699000002", OperationType: notify.OpOther, Code: "222222"})
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	o = open(t, h, dir)
	es := list(t, o)
	if len(es) != 2 || es[0].Code != "111111" || es[1].Code != "222222" || es[0].OperationType != notify.OpAddBank {
		t.Fatalf("after reopen: %+v", es)
	}
	mustSend(t, o, notify.Message{Channel: notify.ChannelSMS, To: "+97699000003", Code: "333333"})
	if es := list(t, o); len(es) != 3 || es[2].Code != "333333" {
		t.Fatalf("send after reopen: %+v", es)
	}
}

func get(t *testing.T, o Outbox, target string) ([]outbox.Entry, *httptest.ResponseRecorder) {
	t.Helper()
	rec := httptest.NewRecorder()
	o.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	if rec.Code != http.StatusOK {
		return nil, rec
	}
	var es []outbox.Entry
	if err := json.Unmarshal(rec.Body.Bytes(), &es); err != nil {
		t.Fatalf("GET %s: body %s: %v", target, rec.Body, err)
	}
	return es, rec
}

func testHTTP(t *testing.T, h Harness) {
	o := open(t, h, t.TempDir())
	_, rec := get(t, o, "/dev/outbox")
	if strings.TrimSpace(rec.Body.String()) != "[]" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("empty outbox: %q %q", rec.Body, rec.Header().Get("Content-Type"))
	}
	mustSend(t, o, notify.Message{Channel: notify.ChannelSMS, To: "+97688000001", Code: "100001"})
	mustSend(t, o, notify.Message{Channel: notify.ChannelEmail, To: "x@example.mn", Code: "100002"})
	mustSend(t, o, notify.Message{Channel: notify.ChannelSMS, To: "+97688000001", Code: "100003"})
	all, _ := get(t, o, "/dev/outbox")
	if len(all) != 3 || all[2].Code != "100003" {
		t.Fatalf("GET all: %+v", all)
	}
	mine, _ := get(t, o, "/dev/outbox?to=%2B97688000001")
	if len(mine) != 2 || mine[0].Code != "100001" || mine[1].Code != "100003" {
		t.Fatalf("GET ?to=: %+v", mine)
	}
	mails, _ := get(t, o, "/dev/outbox?channel=email")
	if len(mails) != 1 || mails[0].To != "x@example.mn" {
		t.Fatalf("GET ?channel=email: %+v", mails)
	}
	var raw []map[string]any
	_, rec = get(t, o, "/dev/outbox")
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"to", "channel", "operationType", "code", "sentAt"} {
		if _, ok := raw[0][k]; !ok {
			t.Fatalf("entry lacks %q: %v", k, raw[0])
		}
	}
	post := httptest.NewRecorder()
	o.ServeHTTP(post, httptest.NewRequest(http.MethodPost, "/dev/outbox", nil))
	if post.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST answered %d", post.Code)
	}
}

func testConcurrent(t *testing.T, h Harness) {
	dir := t.TempDir()
	o := h.Open(t, dir)
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := o.Send(context.Background(), notify.Message{Channel: notify.ChannelSMS, To: fmt.Sprintf("+9768800%04d", i), Code: fmt.Sprintf("%06d", i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	o = open(t, h, dir)
	es := list(t, o)
	if len(es) != n {
		t.Fatalf("after concurrent sends and reopen: %d entries, want %d", len(es), n)
	}
	seen := map[string]bool{}
	for _, e := range es {
		seen[e.Code] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct codes, want %d", len(seen), n)
	}
}
