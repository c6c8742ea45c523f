// Package banksim is the local bank simulator for MNT withdrawals: a bank
// withdrawal becomes a payment request whose confirmation page
// (/dev/bank/confirm?id=...) shows Approve and Reject buttons; the answer
// completes the withdrawal workflow's task token (settle or release).
// Requests are durable in the store and idempotent per withdrawal.
//
// Storage layout:
//
//	request  pk "BANKSIM#<id>" sk "REQ"  ref, amount, bankName, accountNo, accountName,
//	         status (pending|approved|rejected), token, created, answered
package banksim

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// Request statuses.
const (
	StatusPending  = "pending"
	StatusApproved = "approved"
	StatusRejected = "rejected"
)

// Errors.
var (
	ErrNotFound = errors.New("banksim: no such request")
	// ErrAnswered: the request was already approved or rejected.
	ErrAnswered = errors.New("banksim: request already answered")
	ErrInput    = errors.New("banksim: invalid input")
)

// Completer receives the answer of a watched request.
type Completer interface {
	Complete(ctx context.Context, token string, ok bool, detail string) error
}

// Request is one payment the exchange asked the bank to make.
type Request struct {
	ID          string          `json:"id"`
	Ref         string          `json:"ref"`
	Amount      decimal.Decimal `json:"amount"`
	BankName    string          `json:"bankName"`
	AccountNo   string          `json:"accountNo"`
	AccountName string          `json:"accountName"`
	Status      string          `json:"status"`
	Created     int64           `json:"created"`
	Answered    int64           `json:"answered,omitempty"`
	token       string
}

// Options configure the simulator.
type Options struct {
	Store store.Store
	Now   func() time.Time
	Log   zerolog.Logger
	// BaseURL prefixes the confirmation page's URL ("" gives a relative URL).
	BaseURL   string
	Completer Completer
}

// Sim is the bank simulator.
type Sim struct {
	o    Options
	comp Completer
}

// New returns a simulator.
func New(o Options) *Sim {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Sim{o: o, comp: o.Completer}
}

// SetCompleter sets who receives answers (set before serving requests).
func (s *Sim) SetCompleter(c Completer) { s.comp = c }

func reqKey(id string) store.Key { return store.Key{PK: "BANKSIM#" + id, SK: "REQ"} }

func requestOf(it store.Item) Request {
	return Request{ID: strings.TrimPrefix(it.Str(store.AttrPK), "BANKSIM#"), Ref: it.Str("ref"), Amount: it.Dec("amount"),
		BankName: it.Str("bankName"), AccountNo: it.Str("accountNo"), AccountName: it.Str("accountName"),
		Status: it.Str("status"), Created: it.Int("created"), Answered: it.Int("answered"), token: it.Str("token")}
}

// PayReq asks the bank to pay out.
type PayReq struct {
	Ref                              string
	Amount                           decimal.Decimal
	BankName, AccountNo, AccountName string
}

// Pay creates the payment request of a withdrawal; asking again for the same
// Ref returns the first request.
func (s *Sim) Pay(ctx context.Context, r PayReq) (Request, error) {
	if r.Ref == "" || !r.Amount.IsPositive() || r.AccountNo == "" {
		return Request{}, fmt.Errorf("%w: reference, amount and account are required", ErrInput)
	}
	k := reqKey(r.Ref)
	it := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "ref": r.Ref, "amount": r.Amount, "bankName": r.BankName,
		"accountNo": r.AccountNo, "accountName": r.AccountName, "status": StatusPending, "created": s.o.Now().UnixMilli()}
	err := s.o.Store.Put(ctx, it, store.ItemNotExists())
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return Request{}, err
	}
	return s.Get(ctx, r.Ref)
}

// Get reads a request.
func (s *Sim) Get(ctx context.Context, id string) (Request, error) {
	it, err := s.o.Store.Get(ctx, reqKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Request{}, ErrNotFound
	}
	if err != nil {
		return Request{}, err
	}
	return requestOf(it), nil
}

// ConfirmURL is the confirmation page of a request.
func (s *Sim) ConfirmURL(id string) string {
	return strings.TrimRight(s.o.BaseURL, "/") + "/dev/bank/confirm?id=" + url.QueryEscape(id)
}

// Watch registers the task token that the request's answer completes. When
// the request was answered already, the answer is delivered now.
func (s *Sim) Watch(ctx context.Context, id, token string) error {
	it, err := s.o.Store.Update(ctx, reqKey(id), store.NewUpdate().Set("token", token), store.ItemExists())
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	r := requestOf(it)
	if r.Status != StatusPending && s.comp != nil {
		return s.comp.Complete(ctx, token, r.Status == StatusApproved, "bank "+r.Status)
	}
	return nil
}

// Answer approves or rejects a pending request and completes its token.
func (s *Sim) Answer(ctx context.Context, id string, approve bool) (Request, error) {
	status := StatusRejected
	if approve {
		status = StatusApproved
	}
	var it store.Item
	for try := 0; ; try++ {
		var err error
		it, err = s.o.Store.Update(ctx, reqKey(id), store.NewUpdate().Set("status", status).Set("answered", s.o.Now().UnixMilli()),
			store.And(store.ItemExists(), store.Eq("status", StatusPending)))
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrConditionFailed) {
			return Request{}, err
		}
		r, gerr := s.Get(ctx, id)
		if gerr != nil {
			return Request{}, gerr
		}
		// The condition failed because the request did not exist yet: Pay
		// created it meanwhile, still pending. Answer it now rather than
		// report it answered (which dropped the answer).
		if r.Status == StatusPending && try < 3 {
			continue
		}
		return r, ErrAnswered
	}
	r := requestOf(it)
	s.o.Log.Info().Str("id", id).Str("status", status).Msg("bank simulator answer")
	// Without a token yet, the workflow's await step delivers the answer
	// itself when it registers (Watch).
	if r.token != "" && s.comp != nil {
		if err := s.comp.Complete(ctx, r.token, approve, "bank "+status); err != nil {
			return r, err
		}
	}
	return r, nil
}

var pageTmpl = template.Must(template.New("confirm").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bank simulator: confirm payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{color:#555}
button{font-size:1rem;padding:.6rem 1.4rem;margin-right:1rem;border-radius:.4rem;border:1px solid #888;cursor:pointer}
.ok{background:#16a34a;color:#fff}.no{background:#dc2626;color:#fff}</style></head>
<body><h1>Bank simulator</h1><p>The exchange asks the bank to make this payment.</p>
<dl><dt>Request</dt><dd id="req">{{.ID}}</dd><dt>Amount</dt><dd id="amount">{{.Amount}} MNT</dd>
<dt>Bank</dt><dd>{{.BankName}}</dd><dt>Account</dt><dd>{{.AccountNo}}</dd><dt>Recipient</dt><dd>{{.AccountName}}</dd>
<dt>Status</dt><dd id="status">{{.Status}}</dd></dl>
{{if eq .Status "pending"}}<form method="post" action="/dev/bank/confirm/answer">
<input type="hidden" name="id" value="{{.ID}}">
<button class="ok" name="answer" value="approve" type="submit">Approve</button>
<button class="no" name="answer" value="reject" type="submit">Reject</button></form>
{{else}}<p>This request was {{.Status}}.</p>{{end}}
</body></html>`))

// ServeConfirmPage renders the confirmation page (GET ?id=).
func (s *Sim) ServeConfirmPage(w http.ResponseWriter, r *http.Request) {
	req, err := s.Get(r.Context(), r.URL.Query().Get("id"))
	if err != nil {
		http.Error(w, "no such bank request", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = pageTmpl.Execute(w, req)
}

// ServeAnswer takes the page's form post (id, answer=approve|reject; or a
// JSON body {"id","approve"}) and shows the page again.
func (s *Sim) ServeAnswer(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	id := r.PostForm.Get("id")
	answer := r.PostForm.Get("answer")
	if answer != "approve" && answer != "reject" {
		http.Error(w, "answer must be approve or reject", http.StatusBadRequest)
		return
	}
	_, err := s.Answer(r.Context(), id, answer == "approve")
	switch {
	case errors.Is(err, ErrNotFound):
		http.Error(w, "no such bank request", http.StatusNotFound)
		return
	case err != nil && !errors.Is(err, ErrAnswered):
		s.o.Log.Error().Err(err).Msg("bank simulator answer")
		http.Error(w, "could not record the answer", http.StatusServiceUnavailable)
		return
	}
	http.Redirect(w, r, "/dev/bank/confirm?id="+url.QueryEscape(id), http.StatusSeeOther)
}
