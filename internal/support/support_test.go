package support

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/notify"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// uploads owns the ids it was given, per user.
type uploads map[string][]string

func (u uploads) CheckOwned(_ context.Context, uid string, ids []string) error {
	for _, id := range ids {
		found := false
		for _, own := range u[uid] {
			found = found || own == id
		}
		if !found {
			return apperr.New(apperr.CodeNotFound)
		}
	}
	return nil
}

type users map[string]auth.User

func (u users) User(_ context.Context, uid string) (auth.User, error) {
	if x, ok := u[uid]; ok {
		return x, nil
	}
	return auth.User{}, apperr.New(apperr.CodeNotSignedIn)
}

type sent struct {
	mu   sync.Mutex
	msgs []notify.Message
}

func (s *sent) Send(_ context.Context, m notify.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, m)
	return nil
}

type env struct {
	svc   *Service
	clock *clock
	sent  *sent
}

func newEnv(t *testing.T, att Attachments) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &env{clock: &clock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}, sent: &sent{}}
	e.svc = New(Options{Store: st, Attachments: att, Users: users{"11111111": {ID: "11111111", Email: "owner@example.com"}},
		Notify: e.sent, Now: e.clock.Now, Log: zerolog.Nop()})
	return e
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Entry.Code != code {
		t.Fatalf("want code %s, got %v", code, err)
	}
}

const owner, stranger = "11111111", "22222222"

func (e *env) open(t *testing.T, uid string) Detail {
	t.Helper()
	d, err := e.svc.Create(ctx, uid, NewTicket{Type: "withdrawal", Title: "Withdrawal stuck", Description: "My USDT withdrawal has not arrived."})
	wantCode(t, err, "")
	return d
}

// A ticket is its owner's only: another user's id answers not found, as
// a made-up one does, for reads and replies alike, and lists show each
// user their own.
func TestTicketsAreTheOwnersOnly(t *testing.T) {
	e := newEnv(t, nil)
	d := e.open(t, owner)
	if d.Status != StatusOpen || d.Messages != 1 || len(d.Thread) != 1 || d.Thread[0].By != ByUser || len(d.ID) != idLen {
		t.Fatalf("new ticket %+v", d)
	}
	got, err := e.svc.Get(ctx, owner, d.ID)
	wantCode(t, err, "")
	if got.Title != "Withdrawal stuck" || got.Thread[0].Text != "My USDT withdrawal has not arrived." {
		t.Fatalf("read %+v", got)
	}
	_, err = e.svc.Get(ctx, stranger, d.ID)
	wantCode(t, err, apperr.CodeTicketNotFound)
	_, err = e.svc.Get(ctx, owner, "tzzzzzzzzzzzz")
	wantCode(t, err, apperr.CodeTicketNotFound)
	_, err = e.svc.Get(ctx, owner, "../TICKET#x")
	wantCode(t, err, apperr.CodeTicketNotFound)
	_, err = e.svc.Reply(ctx, stranger, d.ID, "me too", nil)
	wantCode(t, err, apperr.CodeTicketNotFound)
	_, err = e.svc.Get(ctx, "", d.ID)
	wantCode(t, err, apperr.CodeNotSignedIn)
	mine, n, err := e.svc.List(ctx, owner, ListFilter{})
	wantCode(t, err, "")
	theirs, m, _ := e.svc.List(ctx, stranger, ListFilter{})
	if n != 1 || len(mine) != 1 || mine[0].ID != d.ID || m != 0 || len(theirs) != 0 {
		t.Fatalf("lists %+v %+v", mine, theirs)
	}
}

// States: a new ticket is open; support's answer makes it answered (and
// tells the owner); the user's reply opens it again; closed, it takes no
// more messages from either side.
func TestTicketStates(t *testing.T) {
	e := newEnv(t, nil)
	d := e.open(t, owner)
	e.clock.Add(time.Minute)
	a, err := e.svc.Answer(ctx, d.ID, "bataa", "We are checking the chain. It should arrive within the hour.")
	wantCode(t, err, "")
	if a.Status != StatusAnswered || a.LastBy != BySupport || len(a.Thread) != 2 || a.Thread[1].Operator != "bataa" {
		t.Fatalf("answered %+v", a)
	}
	if len(e.sent.msgs) != 1 || e.sent.msgs[0].To != "owner@example.com" || !strings.Contains(e.sent.msgs[0].Text, d.ID) {
		t.Fatalf("owner told %+v", e.sent.msgs)
	}
	queue, _ := e.svc.Queue(ctx, StatusAnswered)
	if len(queue) != 1 || queue[0].ID != d.ID {
		t.Fatalf("answered queue %+v", queue)
	}
	e.clock.Add(time.Minute)
	r, err := e.svc.Reply(ctx, owner, d.ID, "It arrived, thank you.", nil)
	wantCode(t, err, "")
	if r.Status != StatusOpen || r.Messages != 3 || r.Thread[2].Seq != 3 || r.UpdatedAt != e.clock.Now().UnixMilli() {
		t.Fatalf("after reply %+v", r)
	}
	open, _, _ := e.svc.List(ctx, owner, ListFilter{Status: StatusOpen})
	if len(open) != 1 {
		t.Fatalf("open list %+v", open)
	}
	_, _, err = e.svc.List(ctx, owner, ListFilter{Status: "pending"})
	wantCode(t, err, apperr.CodeTicketStatus)
	wantCode(t, e.svc.Close(ctx, d.ID, "bataa"), "")
	wantCode(t, e.svc.Close(ctx, d.ID, "bataa"), apperr.CodeTicketClosed)
	_, err = e.svc.Reply(ctx, owner, d.ID, "One more thing", nil)
	wantCode(t, err, apperr.CodeTicketClosed)
	_, err = e.svc.Answer(ctx, d.ID, "bataa", "late")
	wantCode(t, err, apperr.CodeTicketClosed)
	closed, _ := e.svc.Queue(ctx, StatusClosed)
	if len(closed) != 1 || closed[0].Status != StatusClosed {
		t.Fatalf("closed queue %+v", closed)
	}
	if q, _ := e.svc.Queue(ctx, StatusOpen); len(q) != 0 {
		t.Fatalf("open queue %+v", q)
	}
}

// Lengths, types, attachments per message and tickets per day are
// bounded; attachments must be the user's own uploads.
func TestTicketLimits(t *testing.T) {
	e := newEnv(t, uploads{owner: {"u1", "u2", "u3", "u4", "u5", "u6"}, stranger: {"s1"}})
	create := func(in NewTicket) error {
		if in.Type == "" {
			in.Type = "other"
		}
		if in.Title == "" {
			in.Title = "Question"
		}
		if in.Description == "" {
			in.Description = "Hello"
		}
		_, err := e.svc.Create(ctx, owner, in)
		return err
	}
	wantCode(t, create(NewTicket{Type: "lottery"}), apperr.CodeTicketType)
	wantCode(t, create(NewTicket{Title: strings.Repeat("й", MaxTitleLen+1)}), apperr.CodeTicketTitle)
	wantCode(t, create(NewTicket{Title: "line\nbreak"}), apperr.CodeTicketTitle)
	wantCode(t, create(NewTicket{Description: strings.Repeat("x", MaxTextLen+1)}), apperr.CodeTicketText)
	wantCode(t, create(NewTicket{Description: "hidden \u202e text"}), apperr.CodeTicketText)
	wantCode(t, create(NewTicket{Description: "   "}), apperr.CodeTicketText)
	wantCode(t, create(NewTicket{Attachments: []string{"u1", "u2", "u3", "u4", "u5", "u6"}}), apperr.CodeTicketAttachments)
	wantCode(t, create(NewTicket{Attachments: []string{"s1"}}), apperr.CodeTicketAttachment)
	// None of the refused ones counted against the day.
	for i := range TicketsPerDay {
		e.clock.Add(time.Second)
		wantCode(t, create(NewTicket{Type: "Deposit", Title: fmt.Sprintf("Q%d", i), Description: "multi\nline\ttext",
			Attachments: []string{"u1", "u1", " u2 "}}), "")
	}
	err := create(NewTicket{})
	wantCode(t, err, apperr.CodeTicketDailyLimit)
	var ae *apperr.Error
	if errors.As(err, &ae); ae.Data == nil {
		t.Fatal("no retryAfter with the daily limit")
	}
	list, n, _ := e.svc.List(ctx, owner, ListFilter{PageSize: 2, Page: 2})
	if n != TicketsPerDay || len(list) != 2 || list[0].Title != "Q2" {
		t.Fatalf("page 2 of %d: %+v", n, list)
	}
	d, _ := e.svc.Get(ctx, owner, list[0].ID)
	if d.Type != "deposit" || len(d.Thread[0].Attachments) != 2 || d.Thread[0].Text != "multi\nline\ttext" {
		t.Fatalf("stored %+v", d)
	}
	e.clock.Add(24 * time.Hour)
	wantCode(t, create(NewTicket{}), "")

	// Without an upload service, attachments are refused, never stored unchecked.
	bare := newEnv(t, nil)
	_, err = bare.svc.Create(ctx, owner, NewTicket{Type: "other", Title: "x", Description: "y", Attachments: []string{"u1"}})
	wantCode(t, err, apperr.CodeTicketAttachment)
}

// A ticket takes at most MaxMessages; concurrent replies each get their
// own sequence number.
func TestTicketRepliesConcurrentlyAndFull(t *testing.T) {
	e := newEnv(t, nil)
	d := e.open(t, owner)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.svc.Reply(ctx, owner, d.ID, fmt.Sprintf("reply %d", i), nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, _ := e.svc.Get(ctx, owner, d.ID)
	if got.Messages != 11 || len(got.Thread) != 11 {
		t.Fatalf("%d messages, %d in the thread", got.Messages, len(got.Thread))
	}
	for i, m := range got.Thread {
		if m.Seq != i+1 {
			t.Fatalf("message %d has seq %d", i, m.Seq)
		}
	}
	for got.Messages < MaxMessages {
		r, err := e.svc.Reply(ctx, owner, d.ID, "more", nil)
		wantCode(t, err, "")
		got = r
	}
	_, err := e.svc.Reply(ctx, owner, d.ID, "one too many", nil)
	wantCode(t, err, apperr.CodeTicketFull)
}
