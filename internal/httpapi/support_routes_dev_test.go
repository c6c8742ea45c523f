package httpapi

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/notify"
	"tenger/internal/support"
)

// supportNotes records what the help desk sends to ticket owners.
type supportNotes struct {
	mu   sync.Mutex
	msgs []notify.Message
}

func (n *supportNotes) Send(_ context.Context, m notify.Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, m)
	return nil
}

func (n *supportNotes) sent() []notify.Message {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]notify.Message(nil), n.msgs...)
}

// The dev operator routes answer and close a ticket as the CLI does: the
// owner reads the answer in the thread (by support, the ticket answered)
// and is told by e-mail; a closed ticket takes no reply, from the owner or
// the operator; unknown tickets and empty answers are refused with the
// catalogue's codes.
func TestDevSupportRoutes(t *testing.T) {
	p := newProfEnv(t)
	notes := &supportNotes{}
	sup := support.New(support.Options{Store: p.st, Users: p.svc, Notify: notes, Now: p.clock.Now, Log: zerolog.Nop()})
	opts := Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}
	mux := http.NewServeMux()
	Mount(mux, NewProfileRouter(p.svc, opts), NewSupportRouter(sup, opts), NewDevSupportRouter(sup, opts))
	p.h = mux

	p.signUp(t, "asker@example.com", "passw0rd")
	a := hdr(p.signIn(t, "asker@example.com", "passw0rd"))
	d := p.ok(t, pTicketNew, withEnv(map[string]any{"type": "withdrawal", "title": "Withdrawal pending",
		"description": "My BTC withdrawal has been pending for two hours."}), a)
	id, _ := d["id"].(string)

	// No session is needed: the dev routes stand for the operator's CLI.
	r := p.ok(t, "/dev/support/reply", map[string]any{"id": id, "content": "  We are looking into it.  "}, authMode{})
	if r["status"] != support.StatusAnswered || r["messages"] != float64(2) {
		t.Fatalf("answer %+v", r)
	}
	got := p.ok(t, pTicketGet, withEnv(map[string]any{"id": id}), a)
	thread, _ := got["thread"].([]any)
	if got["status"] != support.StatusAnswered || len(thread) != 2 {
		t.Fatalf("details after the answer %+v", got)
	}
	last := thread[1].(map[string]any)
	if last["by"] != support.BySupport || last["text"] != "We are looking into it." || last["operator"] != nil {
		t.Fatalf("operator's message %+v", last)
	}
	sent := notes.sent()
	if len(sent) != 1 || sent[0].To != "asker@example.com" || !strings.Contains(sent[0].Text, id) {
		t.Fatalf("owner told %+v", sent)
	}

	// The owner's reply opens it again; the operator answers once more.
	if r := p.ok(t, pTicketReply, withEnv(map[string]any{"id": id, "content": "Thanks, any news?"}), a); r["status"] != support.StatusOpen {
		t.Fatalf("owner's reply %+v", r)
	}
	p.ok(t, "/dev/support/reply", map[string]any{"id": id, "content": "Sent now.", "operator": "Saraa"}, authMode{})

	p.fails(t, "/dev/support/reply", map[string]any{"id": "nosuchticket", "content": "hello"}, authMode{}, apperr.CodeTicketNotFound)
	p.fails(t, "/dev/support/reply", map[string]any{"id": id, "content": strings.Repeat("x", support.MaxTextLen+1)}, authMode{},
		apperr.CodeTicketText)
	p.fails(t, "/dev/support/reply", map[string]any{"id": id}, authMode{}, apperr.CodeParam)

	c := p.ok(t, "/dev/support/close", map[string]any{"id": id}, authMode{})
	if c["id"] != id || c["status"] != support.StatusClosed {
		t.Fatalf("close %+v", c)
	}
	p.fails(t, "/dev/support/close", map[string]any{"id": id}, authMode{}, apperr.CodeTicketClosed)
	p.fails(t, pTicketReply, withEnv(map[string]any{"id": id, "content": "one more thing"}), a, apperr.CodeTicketClosed)
	p.fails(t, "/dev/support/reply", map[string]any{"id": id, "content": "late"}, authMode{}, apperr.CodeTicketClosed)
	if got := p.ok(t, pTicketGet, withEnv(map[string]any{"id": id}), a); got["status"] != support.StatusClosed {
		t.Fatalf("details after the close %+v", got)
	}
}

// The dev support routes are documented as dev-only and public.
func TestDevSupportRoutesDoc(t *testing.T) {
	r := NewDevSupportRouter(support.New(support.Options{}), Options{Log: zerolog.Nop()})
	seen := map[string]bool{}
	for _, d := range r.Routes() {
		seen[d.Path] = true
		if d.Tag != "dev" || d.Auth != Public || !strings.Contains(d.Summary, "--dev only") {
			t.Errorf("route %s documented as %+v", d.Path, d)
		}
	}
	if !seen["/dev/support/reply"] || !seen["/dev/support/close"] {
		t.Fatalf("routes %v", seen)
	}
}
