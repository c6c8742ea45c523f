package banksim

import (
	"context"
	"errors"
	"testing"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

type answers map[string]bool

func (a answers) Complete(_ context.Context, token string, ok bool, _ string) error {
	a[token] = ok
	return nil
}

func TestPayWatchAnswer(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := answers{}
	s := New(Options{Store: st, Log: zerolog.Nop(), Completer: got, BaseURL: "http://localhost:8080/"})
	req := PayReq{Ref: "w1", Amount: decimal.NewFromInt(99500), BankName: "Khan Bank", AccountNo: "MN123456789012345678", AccountName: "Bat"}
	a, err := s.Pay(ctx, req)
	if err != nil || a.Status != StatusPending {
		t.Fatalf("pay %+v %v", a, err)
	}
	req.Amount = decimal.NewFromInt(1)
	if b, err := s.Pay(ctx, req); err != nil || !b.Amount.Equal(a.Amount) {
		t.Fatalf("second pay must return the first: %+v %v", b, err)
	}
	if u := s.ConfirmURL("w1"); u != "http://localhost:8080/dev/bank/confirm?id=w1" {
		t.Fatalf("url %s", u)
	}
	// Answered before the workflow registered its token: Watch delivers it.
	if _, err := s.Answer(ctx, "w1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(ctx, "w1", false); !errors.Is(err, ErrAnswered) {
		t.Fatalf("second answer: %v", err)
	}
	if err := s.Watch(ctx, "w1", "tok"); err != nil || !got["tok"] {
		t.Fatalf("watch %v %v", got, err)
	}
	// Registered first, then rejected.
	s.Pay(ctx, PayReq{Ref: "w2", Amount: decimal.NewFromInt(5), AccountNo: "MN1"})
	if err := s.Watch(ctx, "w2", "tok2"); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["tok2"]; ok {
		t.Fatal("completed before the answer")
	}
	if _, err := s.Answer(ctx, "w2", false); err != nil {
		t.Fatal(err)
	}
	if ok, seen := got["tok2"]; !seen || ok {
		t.Fatalf("reject %v", got)
	}
	if _, err := s.Answer(ctx, "nope", true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := s.Pay(ctx, PayReq{Ref: "", Amount: decimal.NewFromInt(5), AccountNo: "x"}); !errors.Is(err, ErrInput) {
		t.Fatalf("bad pay: %v", err)
	}
}

// payingStore lets Pay create the request between an answer's failed
// conditional update (the request did not exist yet) and its re-read.
type payingStore struct {
	store.Store
	pay func()
}

func (p *payingStore) Update(ctx context.Context, k store.Key, u *store.Update, c store.Cond) (store.Item, error) {
	it, err := p.Store.Update(ctx, k, u, c)
	if f := p.pay; errors.Is(err, store.ErrConditionFailed) && f != nil {
		p.pay = nil
		f()
	}
	return it, err
}

// TestAnswerWhilePaying: an answer that arrives while the workflow's send
// step is creating the request is recorded (and completes the token), not
// answered "already answered" and dropped. Found by killing the server
// under load: the answer got its 303 redirect, the request stayed pending
// and the withdrawal waited for ever with the user's funds frozen.
func TestAnswerWhilePaying(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := answers{}
	ps := &payingStore{Store: st}
	s := New(Options{Store: ps, Log: zerolog.Nop(), Completer: got})
	ps.pay = func() {
		if _, err := s.Pay(ctx, PayReq{Ref: "w1", Amount: decimal.NewFromInt(99500), AccountNo: "MN123456789012345678"}); err != nil {
			t.Error(err)
		}
		if err := s.Watch(ctx, "w1", "tok"); err != nil {
			t.Error(err)
		}
	}
	r, err := s.Answer(ctx, "w1", true)
	if err != nil || r.Status != StatusApproved {
		t.Fatalf("answer while paying: %+v %v", r, err)
	}
	if r, _ := s.Get(ctx, "w1"); r.Status != StatusApproved {
		t.Fatalf("stored status %s", r.Status)
	}
	if ok, seen := got["tok"]; !seen || !ok {
		t.Fatalf("token not completed: %v", got)
	}
}
