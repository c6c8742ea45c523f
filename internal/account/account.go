package account

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"tenger/internal/apikey"
	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// RetentionPeriod is how long a cancelled account's records are kept at
// least. Anti-money-laundering rules require an exchange to keep its
// customers' identification and transaction records for at least five
// years after the relationship ends (FATF Recommendation 11, which
// Mongolia's AML/CFT law follows for virtual asset service providers), so
// nothing of a cancelled account is deleted: its profile, e-mail and phone
// reservations, histories, orders, trades, deposits, withdrawals, postings
// and verification records all stay. The record notes the date until
// which they must; erasing anything after it is a separate, deliberate
// job (none exists yet).
const RetentionPeriod = 5 * 365 * 24 * time.Hour

// MaxReasonLen bounds the owner's optional reason for leaving.
const MaxReasonLen = 500

// Reason types: why an account cannot be cancelled yet.
const (
	ReasonBalance            = "balance"
	ReasonOpenOrders         = "open_orders"
	ReasonPendingWithdrawals = "pending_withdrawals"
	ReasonPendingTransfers   = "pending_transfers"
	ReasonPendingDeposits    = "pending_deposits"
)

// Profiles is what the service needs of the accounts service
// (*auth.Service): the profile, and the profile's side of a cancellation.
type Profiles interface {
	User(ctx context.Context, uid string) (auth.User, error)
	CancelAccount(ctx context.Context, m auth.Meta, in auth.CancelInput) (time.Time, error)
	ReopenAccount(ctx context.Context, uid string, extra ...store.Op) error
}

var _ Profiles = (*auth.Service)(nil)

// Keys removes a user's API keys in the cancellation's transaction
// (*apikey.Service).
type Keys interface {
	RevokeAll(ctx context.Context, uid string) (apikey.Revocation, error)
}

var _ Keys = (*apikey.Service)(nil)

// Pending counts what is still on its way for a user. StorePending reads
// it from the store, as the owning packages lay it out.
type Pending interface {
	OpenOrders(ctx context.Context, uid string) (int, error)
	Withdrawals(ctx context.Context, uid string) (int, error)
	Transfers(ctx context.Context, uid string) (int, error)
	Deposits(ctx context.Context, uid string) (int, error)
}

// Options configure a Service.
type Options struct {
	Store store.Store
	Auth  Profiles
	// Keys removes the user's API keys; without it a cancellation is
	// refused (CodeInternal): an account must not close with keys that
	// still trade.
	Keys Keys
	// Ledger reads the balances (nil: a ledger on Store).
	Ledger *ledger.Ledger
	// Pending counts orders, withdrawals, transfers and deposits on their
	// way (nil: StorePending on Store).
	Pending Pending
	Now     func() time.Time
	Log     zerolog.Logger
}

// Service checks, cancels and reopens accounts.
type Service struct {
	o Options
	// beforeCommit, when set (tests), runs between the check and the
	// cancellation's transaction: where a racing deposit lands.
	beforeCommit func()
}

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Ledger == nil {
		o.Ledger = ledger.New(o.Store, o.Now)
	}
	if o.Pending == nil {
		o.Pending = StorePending{Store: o.Store}
	}
	return &Service{o: o}
}

// Holding is one non-zero balance.
type Holding struct {
	Account   string `json:"account" doc:"spot, earn, futures, margin_cross, margin_isolated or otc"`
	Symbol    string `json:"symbol,omitempty" doc:"the pair of an isolated margin account"`
	Coin      string `json:"coin"`
	Available string `json:"available"`
	Frozen    string `json:"frozen" doc:"held by open orders or withdrawals"`
	Total     string `json:"total"`
}

// Reason is one thing that keeps the account from being cancelled.
type Reason struct {
	Type string `json:"type" doc:"balance, open_orders, pending_withdrawals, pending_transfers or pending_deposits"`
	// Code is the reason's catalogue code (16220-16224) and Msg its text
	// in the caller's language.
	Code     string    `json:"code"`
	Msg      string    `json:"msg"`
	Count    int       `json:"count" doc:"how many (balances, orders, withdrawals, transfers, deposits)"`
	Balances []Holding `json:"balances,omitempty" doc:"the non-zero balances (type balance)"`
}

// Info is check_user_cancellation_info's answer.
type Info struct {
	CanCancel bool     `json:"canCancel" doc:"true when nothing keeps the account from being cancelled"`
	Reasons   []Reason `json:"reasons" doc:"every reason it cannot be cancelled yet (empty when canCancel)"`
	// APIKeys is how many API keys the cancellation deletes.
	APIKeys int `json:"apiKeys" doc:"API keys the cancellation deletes"`
	// The codes user_cancellation asks for (as a withdrawal does).
	NeedEmailCode  bool `json:"needEmailCode" doc:"send emailCode: the code of operationType 17 sent to the account's e-mail"`
	NeedSMSCode    bool `json:"needSmsCode" doc:"send smsAuthCode: the code of operationType 11 sent to the account's phone"`
	NeedGoogleCode bool `json:"needGoogleCode" doc:"send googleCode"`
}

// state is what a check read: the answer, and the balance items it
// decided on (the cancellation checks them again in its transaction).
type state struct {
	info     Info
	balances []ledger.Balance
}

// Check says whether the user may cancel the account and, if not, every
// reason, with messages in lang.
func (s *Service) Check(ctx context.Context, uid, lang string) (Info, error) {
	st, err := s.check(ctx, uid, lang)
	return st.info, err
}

func (s *Service) check(ctx context.Context, uid, lang string) (state, error) {
	u, err := s.o.Auth.User(ctx, uid)
	if err != nil {
		return state{}, err
	}
	if u.CancelledMs != 0 {
		return state{}, apperr.New(apperr.CodeAccountCancelled)
	}
	var st state
	st.info.NeedEmailCode, st.info.NeedSMSCode, st.info.NeedGoogleCode = auth.WithdrawalFactors(u)
	bals, err := s.o.Ledger.Balances(ctx, uid, "")
	if err != nil {
		return state{}, internal(err)
	}
	st.balances = bals
	var held []Holding
	for _, b := range bals {
		if !b.Available.IsZero() || !b.Frozen.IsZero() {
			held = append(held, holdingOf(b))
		}
	}
	reasons := []Reason{}
	if len(held) > 0 {
		reasons = append(reasons, Reason{Type: ReasonBalance, Code: apperr.CodeCancelBalance, Count: len(held), Balances: held,
			Msg: apperr.New(apperr.CodeCancelBalance, summary(held)).Message(lang)})
	}
	counts := []struct {
		typ, code string
		count     func(context.Context, string) (int, error)
	}{
		{ReasonOpenOrders, apperr.CodeCancelOpenOrders, s.o.Pending.OpenOrders},
		{ReasonPendingWithdrawals, apperr.CodeCancelPendingWithdrawals, s.o.Pending.Withdrawals},
		{ReasonPendingTransfers, apperr.CodeCancelPendingTransfers, s.o.Pending.Transfers},
		{ReasonPendingDeposits, apperr.CodeCancelPendingDeposits, s.o.Pending.Deposits},
	}
	for _, c := range counts {
		n, err := c.count(ctx, uid)
		if err != nil {
			return state{}, internal(err)
		}
		if n > 0 {
			reasons = append(reasons, Reason{Type: c.typ, Code: c.code, Count: n, Msg: apperr.New(c.code, n).Message(lang)})
		}
	}
	st.info.Reasons = reasons
	st.info.CanCancel = len(reasons) == 0
	if s.o.Keys != nil {
		rev, err := s.o.Keys.RevokeAll(ctx, uid)
		if err != nil {
			return state{}, internal(err)
		}
		st.info.APIKeys = len(rev.Keys)
	}
	return st, nil
}

// CancelRequest is a user_cancellation.
type CancelRequest struct {
	Codes auth.Codes
	// Reason is the owner's optional reason for leaving (kept on the record).
	Reason string
}

// Cancelled is what a stored cancellation answers.
type Cancelled struct {
	CancelledAt int64 `json:"cancelledAt" doc:"Unix ms"`
}

// Cancel cancels the signed-in user's account: refused with
// CodeCancellationBlocked (data: the check's answer) while anything keeps
// it, else one transaction (see the package doc) after the codes are
// checked. The caller's sessions and API keys end with it.
func (s *Service) Cancel(ctx context.Context, m auth.Meta, in CancelRequest) (Cancelled, error) {
	reason := strings.TrimSpace(in.Reason)
	if utf8.RuneCountInString(reason) > MaxReasonLen || !utf8.ValidString(reason) {
		return Cancelled{}, apperr.New(apperr.CodeCancellationReason, MaxReasonLen)
	}
	if s.o.Keys == nil {
		return Cancelled{}, internal(errors.New("account: no API key service to revoke the keys with"))
	}
	st, err := s.check(ctx, m.UserID, m.Lang)
	if err != nil {
		return Cancelled{}, err
	}
	if !st.info.CanCancel {
		return Cancelled{}, apperr.New(apperr.CodeCancellationBlocked, len(st.info.Reasons)).WithData(st.info)
	}
	rev, err := s.o.Keys.RevokeAll(ctx, m.UserID)
	if err != nil {
		return Cancelled{}, internal(err)
	}
	now := s.o.Now()
	extra := []store.Op{s.recordOp(m, reason, rev.Keys, now)}
	extra = append(extra, rev.Ops...)
	// Every balance read is checked again in the transaction, as far as
	// the store's transaction holds them: the profile's writes, the codes
	// and the history come first (authOps). Balances past that (a user
	// with a great many zero balances and keys) rest on the check alone;
	// money arriving there is held as any later deposit is.
	guards := 0
	for _, b := range st.balances {
		if len(extra)+authOps >= store.MaxTransactItems {
			s.o.Log.Warn().Str("uid", m.UserID).Int("unchecked", len(st.balances)-guards).
				Msg("account: cancellation without a transaction check of every balance")
			break
		}
		extra = append(extra, ledger.UnchangedOp(b).Named(opNameBalance))
		guards++
	}
	if s.beforeCommit != nil {
		s.beforeCommit()
	}
	at, err := s.o.Auth.CancelAccount(ctx, m, auth.CancelInput{Codes: in.Codes, Extra: extra})
	if err != nil {
		return Cancelled{}, err
	}
	rev.Done()
	s.o.Log.Info().Str("uid", m.UserID).Int("apiKeys", len(rev.Keys)).Int("balancesChecked", guards).Msg("account cancelled")
	return Cancelled{CancelledAt: at.UnixMilli()}, nil
}

// authOps is the most operations auth's side of a cancellation adds to the
// transaction: the profile, the history entry and two codes.
const authOps = 4

// opNameBalance names the balance checks of a cancellation's transaction.
const opNameBalance = "balance"

func recordKey(uid string) store.Key { return store.Key{PK: "USER#" + uid, SK: "CANCELLATION"} }

// closedIndex is the gsi1 partition of the cancelled accounts (Review).
const closedIndex = "ACCTCLOSED"

func (s *Service) recordOp(m auth.Meta, reason string, keys []string, now time.Time) store.Op {
	k := recordKey(m.UserID)
	ids := make([]any, len(keys))
	for i, key := range keys {
		ids[i] = key
	}
	return store.PutOp(store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": m.UserID,
		"cancelledAt": now.UnixMilli(), "reason": reason, "ip": m.IP, "device": clip(m.Device, 128), "apiKeys": ids,
		"retainUntil":    now.Add(RetentionPeriod).UnixMilli(),
		store.AttrGSI1PK: closedIndex, store.AttrGSI1SK: fmt.Sprintf("%013d#%s", now.UnixMilli(), m.UserID)}, nil).Named("record")
}

// Reopen opens a cancelled account again (an operator's action, once the
// operator has checked who asks): the owner may sign in with their
// password and move what the account holds. note says why, on the record.
func (s *Service) Reopen(ctx context.Context, uid, note string) error {
	return s.ReopenAs(ctx, uid, "", note)
}

// ReopenAs is Reopen that also names the operator who decided (by, kept on
// the record as reopenedBy), as the AWS runtime's admin function records
// its caller.
func (s *Service) ReopenAs(ctx context.Context, uid, by, note string) error {
	uid = strings.TrimSpace(uid)
	if uid == "" || strings.ContainsAny(uid, "#") || len(uid) > 64 {
		return apperr.New(apperr.CodeAccountUnknown, clip(uid, 64))
	}
	upd := store.NewUpdate().Set("reopenedAt", s.o.Now().UnixMilli()).Set("reopenNote", clip(strings.TrimSpace(note), 500)).
		Remove(store.AttrGSI1PK).Remove(store.AttrGSI1SK)
	if by = strings.TrimSpace(by); by != "" {
		upd.Set("reopenedBy", clip(by, 128))
	}
	return s.o.Auth.ReopenAccount(ctx, uid, store.UpdateOp(recordKey(uid), upd, nil))
}

// Closed is a cancelled account as Review lists it.
type Closed struct {
	UID         string
	CancelledAt time.Time
	Reason      string
	// Holdings are its non-zero balances: money that reached it after the
	// cancellation, held until an operator reopens it.
	Holdings []Holding
}

// Review lists the cancelled accounts, oldest first; with fundedOnly only
// those holding money (deposits that arrived after the cancellation).
func (s *Service) Review(ctx context.Context, fundedOnly bool) ([]Closed, error) {
	q := store.Query{Index: store.IndexGSI1, PK: closedIndex, Limit: 200}
	var out []Closed
	for {
		page, err := s.o.Store.Query(ctx, q)
		if err != nil {
			return nil, internal(err)
		}
		for _, it := range page.Items {
			c := Closed{UID: it.Str("uid"), CancelledAt: time.UnixMilli(it.Int("cancelledAt")), Reason: it.Str("reason")}
			bals, err := s.o.Ledger.Balances(ctx, c.UID, "")
			if err != nil {
				return nil, internal(err)
			}
			for _, b := range bals {
				if !b.Available.IsZero() || !b.Frozen.IsZero() {
					c.Holdings = append(c.Holdings, holdingOf(b))
				}
			}
			if !fundedOnly || len(c.Holdings) > 0 {
				out = append(out, c)
			}
		}
		if page.Cursor == "" {
			return out, nil
		}
		q.Cursor = page.Cursor
	}
}

// Status is an account's cancellation state as an operator sees it.
type Status struct {
	UID         string
	CancelledAt time.Time // zero while open
	Reason      string
	RetainUntil time.Time
	ReopenedAt  time.Time
	ReopenedBy  string // the operator of the last reopening, when named
	ReopenNote  string // why it was reopened
	APIKeys     []string
	Holdings    []Holding
}

// Show reports an account's cancellation state and balances (operator).
func (s *Service) Show(ctx context.Context, uid string) (Status, error) {
	u, err := s.o.Auth.User(ctx, uid)
	if errors.Is(err, apperr.New(apperr.CodeNotSignedIn)) {
		return Status{}, apperr.New(apperr.CodeAccountUnknown, clip(uid, 64))
	}
	if err != nil {
		return Status{}, err
	}
	st := Status{UID: u.ID}
	if u.CancelledMs != 0 {
		st.CancelledAt = time.UnixMilli(u.CancelledMs)
	}
	it, err := s.o.Store.Get(ctx, recordKey(u.ID))
	switch {
	case err == nil:
		st.Reason = it.Str("reason")
		if ms := it.Int("retainUntil"); ms != 0 {
			st.RetainUntil = time.UnixMilli(ms)
		}
		if ms := it.Int("reopenedAt"); ms != 0 {
			st.ReopenedAt = time.UnixMilli(ms)
		}
		st.ReopenedBy, st.ReopenNote = it.Str("reopenedBy"), it.Str("reopenNote")
		if l, ok := it["apiKeys"].([]any); ok {
			for _, v := range l {
				if k, ok := v.(string); ok {
					st.APIKeys = append(st.APIKeys, k)
				}
			}
		}
	case !errors.Is(err, store.ErrNotFound):
		return Status{}, internal(err)
	}
	bals, err := s.o.Ledger.Balances(ctx, u.ID, "")
	if err != nil {
		return Status{}, internal(err)
	}
	for _, b := range bals {
		if !b.Available.IsZero() || !b.Frozen.IsZero() {
			st.Holdings = append(st.Holdings, holdingOf(b))
		}
	}
	return st, nil
}

func holdingOf(b ledger.Balance) Holding {
	return Holding{Account: string(b.Account.Kind), Symbol: b.Account.Sub, Coin: b.Coin,
		Available: b.Available.String(), Frozen: b.Frozen.String(), Total: b.Total().String()}
}

// summary names the holdings in a message: "12.5 USDT (spot), 0.1 BTC
// (earn)", the first three and how many more.
func summary(hs []Holding) string {
	sorted := append([]Holding(nil), hs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Account == "spot" && sorted[j].Account != "spot" })
	var parts []string
	for i, h := range sorted {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("+%d", len(sorted)-3))
			break
		}
		acct := h.Account
		if h.Symbol != "" {
			acct += " " + h.Symbol
		}
		parts = append(parts, h.Total+" "+h.Coin+" ("+acct+")")
	}
	return strings.Join(parts, ", ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}
