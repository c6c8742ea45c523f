package httpapi

import (
	"strings"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/support"
)

const (
	pTicketNew   = "/fe-ex-api/question/create_problem"
	pTicketGet   = "/fe-ex-api/question/details_problem"
	pTicketReply = "/fe-ex-api/question/reply_create"
	pTicketList  = "/fe-ex-api/question/problem_list"
	pTicketTypes = "/fe-ex-api/question/problem_types"
)

// Tickets through the router: opened, read, answered to and listed by
// their owner; another user's ticket id answers not found; the limits
// answer their codes.
func TestSupportRoutes(t *testing.T) {
	p, _, _ := newAccountEnv(t)
	p.signUp(t, "asker@example.com", "passw0rd")
	p.signUp(t, "other@example.com", "passw0rd")
	a := hdr(p.signIn(t, "asker@example.com", "passw0rd"))
	b := hdr(p.signIn(t, "other@example.com", "passw0rd"))
	types := p.ok(t, pTicketTypes, withEnv(map[string]any{}), authMode{})
	if len(types["types"].([]any)) != len(support.Types) || types["perDay"] != float64(support.TicketsPerDay) {
		t.Fatalf("types %+v", types)
	}
	p.fails(t, pTicketNew, withEnv(map[string]any{"type": "other", "title": "t", "description": "d"}), authMode{}, apperr.CodeNotSignedIn)
	d := p.ok(t, pTicketNew, withEnv(map[string]any{"type": "deposit", "title": "Deposit missing",
		"description": "I sent 10 USDT on TRC20 an hour ago."}), a)
	id, _ := d["id"].(string)
	if d["status"] != "open" || len(d["thread"].([]any)) != 1 || id == "" || d["uid"] != nil {
		t.Fatalf("created %+v", d)
	}
	got := p.ok(t, pTicketGet, withEnv(map[string]any{"id": id}), a)
	if got["title"] != "Deposit missing" {
		t.Fatalf("details %+v", got)
	}
	p.fails(t, pTicketGet, withEnv(map[string]any{"id": id}), b, apperr.CodeTicketNotFound)
	p.fails(t, pTicketReply, withEnv(map[string]any{"id": id, "content": "mine now"}), b, apperr.CodeTicketNotFound)
	p.fails(t, pTicketGet, withEnv(map[string]any{"id": strings.Repeat("t", 65)}), a, apperr.CodeTicketNotFound)
	r := p.ok(t, pTicketReply, withEnv(map[string]any{"id": id, "content": "Transaction id: abc123"}), a)
	if r["messages"] != float64(2) {
		t.Fatalf("reply %+v", r)
	}
	list := p.ok(t, pTicketList, withEnv(map[string]any{"page": 1, "pageSize": 10}), a)
	if list["count"] != float64(1) || len(list["list"].([]any)) != 1 {
		t.Fatalf("list %+v", list)
	}
	empty := p.ok(t, pTicketList, withEnv(map[string]any{}), b)
	if empty["count"] != float64(0) || len(empty["list"].([]any)) != 0 {
		t.Fatalf("other's list %+v", empty)
	}
	p.fails(t, pTicketList, withEnv(map[string]any{"status": "waiting"}), a, apperr.CodeTicketStatus)
	p.fails(t, pTicketList, withEnv(map[string]any{"pageSize": 51}), a, apperr.CodeParam)
	p.fails(t, pTicketNew, withEnv(map[string]any{"type": "other", "title": strings.Repeat("x", 101), "description": "d"}), a,
		apperr.CodeTicketTitle)
	p.fails(t, pTicketNew, withEnv(map[string]any{"type": "other", "title": "t", "description": "d", "attachments": []string{"up1"}}), a,
		apperr.CodeTicketAttachment)
	p.fails(t, pTicketNew, withEnv(map[string]any{"type": "other", "title": "t"}), a, apperr.CodeParam)
	for range support.TicketsPerDay - 1 {
		p.ok(t, pTicketNew, withEnv(map[string]any{"type": "other", "title": "again", "description": "d"}), a)
	}
	_, env := p.post(t, pTicketNew, withEnv(map[string]any{"type": "other", "title": "again", "description": "d"}), a)
	if env.Code != apperr.CodeTicketDailyLimit || env.Data.(map[string]any)["retryAfter"] == nil {
		t.Fatalf("sixth ticket %+v", env)
	}
}
