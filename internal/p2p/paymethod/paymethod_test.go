package paymethod

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
	"tenger/internal/coins"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

const owner, stranger = "11111111", "22222222"

// testBanks stands for the wallet's bank list.
func testBanks() []Bank {
	return []Bank{
		{Code: "KHAN", Name: "Khan Bank", NameMN: "Хаан банк"},
		{Code: "GOLOMT", Name: "Golomt Bank", NameMN: "Голомт банк"},
	}
}

func newStore(t *testing.T) store.Store {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func newService(t *testing.T, o Options) *Service {
	t.Helper()
	if o.Store == nil {
		o.Store = newStore(t)
	}
	if o.Banks == nil {
		o.Banks = testBanks
	}
	if o.Now == nil {
		o.Now = func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }
	}
	o.Log = zerolog.Nop()
	return New(o)
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

func iban(n int) string { return fmt.Sprintf("MN%018d", n) }

func bankMethod(n int) NewMethod {
	return NewMethod{Kind: KindBank, Bank: "KHAN", Account: iban(n), UserName: "Bold Bat"}
}

func mustAdd(t *testing.T, s *Service, uid string, in NewMethod) Method {
	t.Helper()
	m, err := s.Add(ctx, uid, in)
	wantCode(t, err, "")
	return m
}

// find is the caller's listed method of id.
func find(t *testing.T, s *Service, uid, id string) Method {
	t.Helper()
	list, err := s.List(ctx, uid)
	wantCode(t, err, "")
	for _, m := range list {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("method %s not listed", id)
	return Method{}
}

// getCompanyPayment offers the bank transfer with the wallet's banks and
// the two phone wallets, all in MNT, and never cash; without a bank list
// the bank kind is not offered, so it cannot be added.
func TestKinds(t *testing.T) {
	s := newService(t, Options{})
	kinds := s.Kinds()
	codes := []string{}
	for _, k := range kinds {
		codes = append(codes, k.Code)
		if k.Fiat != FiatMNT || k.Name == "" || k.NameMN == "" || len(k.Fields) == 0 {
			t.Fatalf("kind %+v", k)
		}
	}
	if fmt.Sprint(codes) != "[bank qpay socialpay]" {
		t.Fatalf("kinds %v", codes)
	}
	if fmt.Sprint(kinds[0].Fields) != "[bank account userName]" || len(kinds[0].Banks) != 2 || kinds[0].Banks[0].Code != "KHAN" {
		t.Fatalf("bank kind %+v", kinds[0])
	}
	if fmt.Sprint(kinds[1].Fields) != "[account userName]" || kinds[1].Banks != nil {
		t.Fatalf("qpay kind %+v", kinds[1])
	}
	_, err := s.Add(ctx, owner, NewMethod{Kind: "cash", Account: "99112233", UserName: "Bold Bat"})
	wantCode(t, err, apperr.CodePayKindUnknown)

	none := New(Options{Store: newStore(t), Log: zerolog.Nop()})
	if k := none.Kinds(); len(k) != 2 || k[0].Code != KindQPay {
		t.Fatalf("kinds without banks %+v", k)
	}
	_, err = none.Add(ctx, owner, bankMethod(1))
	wantCode(t, err, apperr.CodePayKindUnknown)
}

// A method goes through its whole life: added open, listed, edited (state
// and creation time kept), closed, opened, deleted.
func TestLifecycle(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s := newService(t, Options{Now: func() time.Time { return now }})

	m := mustAdd(t, s, owner, NewMethod{Kind: "BANK", Bank: "khan", Account: " 123456789012345678 ", UserName: "  Bold   Bat "})
	if !validID(m.ID) || m.Kind != KindBank || m.Bank != "KHAN" || m.Title != "Khan Bank" || m.TitleMN != "Хаан банк" ||
		m.Account != "MN123456789012345678" || m.UserName != "Bold Bat" || !m.Open || m.Fiat != FiatMNT || m.Ctime != now.UnixMilli() {
		t.Fatalf("added %+v", m)
	}
	now = now.Add(time.Second) // the list is oldest first
	q := mustAdd(t, s, owner, NewMethod{Kind: KindQPay, Account: "+976 9911-2233", UserName: "Bold Bat"})
	if q.Account != "99112233" || q.Title != "QPay" || q.Bank != "" {
		t.Fatalf("qpay %+v", q)
	}

	list, err := s.List(ctx, owner)
	wantCode(t, err, "")
	if len(list) != 2 || list[0] != m || list[1] != q {
		t.Fatalf("list %+v", list)
	}

	closed, err := s.SetOpen(ctx, owner, m.ID, false)
	wantCode(t, err, "")
	if closed.Open {
		t.Fatalf("still open %+v", closed)
	}
	now = now.Add(time.Minute)
	up, err := s.Update(ctx, owner, m.ID, NewMethod{Kind: KindBank, Bank: "GOLOMT", Account: iban(7), UserName: "Bold Bat"})
	wantCode(t, err, "")
	if up.ID != m.ID || up.Open || up.Bank != "GOLOMT" || up.Title != "Golomt Bank" || up.Account != iban(7) ||
		up.Ctime != m.Ctime || up.Mtime != now.UnixMilli() {
		t.Fatalf("updated %+v", up)
	}
	// A wallet method may become a bank transfer and back.
	up2, err := s.Update(ctx, owner, q.ID, NewMethod{Kind: KindSocialPay, Account: "88001122", UserName: "Bold Bat"})
	wantCode(t, err, "")
	if up2.Kind != KindSocialPay || up2.Title != "SocialPay" || up2.Account != "88001122" || !up2.Open {
		t.Fatalf("updated wallet %+v", up2)
	}

	opened, err := s.SetOpen(ctx, owner, m.ID, true)
	wantCode(t, err, "")
	list, _ = s.List(ctx, owner)
	if !opened.Open || !list[0].Open || list[0].Account != iban(7) {
		t.Fatalf("reopened %+v, list %+v", opened, list)
	}

	wantCode(t, s.Delete(ctx, owner, m.ID), "")
	wantCode(t, s.Delete(ctx, owner, m.ID), apperr.CodePayMethodNotFound)
	list, _ = s.List(ctx, owner)
	if len(list) != 1 || list[0].ID != q.ID {
		t.Fatalf("list after delete %+v", list)
	}
	_, err = s.List(ctx, "")
	wantCode(t, err, apperr.CodeNotSignedIn)
}

// Another user's id answers exactly as an id that does not exist, and
// changes nothing.
func TestOwnerChecks(t *testing.T) {
	s := newService(t, Options{})
	m := mustAdd(t, s, owner, bankMethod(1))

	for _, id := range []string{m.ID, "0123456789abcdef", "not-an-id", ""} {
		_, err := s.Update(ctx, stranger, id, bankMethod(2))
		wantCode(t, err, apperr.CodePayMethodNotFound)
		_, err = s.SetOpen(ctx, stranger, id, false)
		wantCode(t, err, apperr.CodePayMethodNotFound)
		wantCode(t, s.Delete(ctx, stranger, id), apperr.CodePayMethodNotFound)
		_, err = s.Get(ctx, stranger, []string{id})
		wantCode(t, err, apperr.CodePayMethodNotFound)
	}
	if l, _ := s.List(ctx, stranger); len(l) != 0 {
		t.Fatalf("stranger lists %+v", l)
	}
	l, _ := s.List(ctx, owner)
	if len(l) != 1 || l[0] != m {
		t.Fatalf("owner's method changed: %+v", l)
	}
	// The stranger may save the same account as their own: the limit and
	// the duplicate rule are per user.
	mustAdd(t, s, stranger, bankMethod(1))
}

func TestValidation(t *testing.T) {
	s := newService(t, Options{})
	cases := []struct {
		name string
		in   NewMethod
		code string
	}{
		{"unknown kind", NewMethod{Kind: "paypal", Account: "99112233", UserName: "Bold Bat"}, apperr.CodePayKindUnknown},
		{"cash", NewMethod{Kind: "cash", UserName: "Bold Bat"}, apperr.CodePayKindUnknown},
		{"no kind", NewMethod{Account: "99112233", UserName: "Bold Bat"}, apperr.CodePayKindUnknown},
		{"unknown bank", NewMethod{Kind: KindBank, Bank: "NOPE", Account: iban(1), UserName: "Bold Bat"}, apperr.CodePayBankUnknown},
		{"no bank", NewMethod{Kind: KindBank, Account: iban(1), UserName: "Bold Bat"}, apperr.CodePayBankUnknown},
		{"no IBAN", NewMethod{Kind: KindBank, Bank: "KHAN", Account: " ", UserName: "Bold Bat"}, apperr.CodePayIBANRequired},
		{"17 digits", NewMethod{Kind: KindBank, Bank: "KHAN", Account: "12345678901234567", UserName: "Bold Bat"}, apperr.CodePayIBANDigits},
		{"wrong prefix", NewMethod{Kind: KindBank, Bank: "KHAN", Account: "GB123456789012345678", UserName: "Bold Bat"}, apperr.CodePayIBANFormat},
		{"IBAN too long", NewMethod{Kind: KindBank, Bank: "KHAN", Account: "MN1234567890123456789", UserName: "Bold Bat"}, apperr.CodePayIBANFormat},
		{"phone 7 digits", NewMethod{Kind: KindQPay, Account: "9911223", UserName: "Bold Bat"}, apperr.CodePayPhone},
		{"phone 9 digits", NewMethod{Kind: KindSocialPay, Account: "991122334", UserName: "Bold Bat"}, apperr.CodePayPhone},
		{"phone letters", NewMethod{Kind: KindQPay, Account: "9911223a", UserName: "Bold Bat"}, apperr.CodePayPhone},
		{"phone IBAN", NewMethod{Kind: KindQPay, Account: iban(1), UserName: "Bold Bat"}, apperr.CodePayPhone},
		{"no name", NewMethod{Kind: KindQPay, Account: "99112233", UserName: "  "}, apperr.CodePayHolderName},
		{"long name", NewMethod{Kind: KindQPay, Account: "99112233", UserName: strings.Repeat("Б", MaxNameLen+1)}, apperr.CodePayHolderName},
		{"control in name", NewMethod{Kind: KindQPay, Account: "99112233", UserName: "Bold\u202eBat"}, apperr.CodePayHolderName},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Add(ctx, owner, c.in)
			wantCode(t, err, c.code)
		})
	}
	if l, _ := s.List(ctx, owner); len(l) != 0 {
		t.Fatalf("refused methods were saved: %+v", l)
	}
	// An update is held to the same rules and leaves the method as it was.
	m := mustAdd(t, s, owner, bankMethod(1))
	_, err := s.Update(ctx, owner, m.ID, NewMethod{Kind: KindQPay, Account: "123", UserName: "Bold Bat"})
	wantCode(t, err, apperr.CodePayPhone)
	if l, _ := s.List(ctx, owner); len(l) != 1 || l[0] != m {
		t.Fatalf("refused update changed the method: %+v", l)
	}
	_, err = s.Add(ctx, "", bankMethod(2))
	wantCode(t, err, apperr.CodeNotSignedIn)
}

// The IBAN codes carry the coins package's texts, so a bank account is
// refused in the same words here as in the wallet.
func TestIBANTextsMatchCoins(t *testing.T) {
	for code, e := range map[string]*coins.IBANError{
		apperr.CodePayIBANRequired: coins.ErrIBANRequired,
		apperr.CodePayIBANDigits:   coins.ErrIBANDigits,
		apperr.CodePayIBANFormat:   coins.ErrIBANFormat,
	} {
		got := apperr.New(code)
		if got.Message(apperr.LangEN) != e.EN || got.Message(apperr.LangMN) != e.MN {
			t.Errorf("%s: %q / %q, coins says %q / %q", code, got.Message(apperr.LangEN), got.Message(apperr.LangMN), e.EN, e.MN)
		}
	}
}

// With the verified name wired, it is the holder of every method: a name
// left out takes it, the same name in other spacing or letter case is it,
// another name is refused, and a user with no verified name adds nothing.
func TestHolderName(t *testing.T) {
	names := map[string]string{owner: "Болд Бат", stranger: ""}
	s := newService(t, Options{HolderName: func(_ context.Context, uid string) (string, error) {
		if uid == "broken" {
			return "", errors.New("users table down")
		}
		return names[uid], nil
	}})

	m := mustAdd(t, s, owner, NewMethod{Kind: KindQPay, Account: "99112233"})
	if m.UserName != "Болд Бат" {
		t.Fatalf("holder %q", m.UserName)
	}
	m2 := mustAdd(t, s, owner, NewMethod{Kind: KindSocialPay, Account: "99112233", UserName: " болд  БАТ "})
	if m2.UserName != "Болд Бат" {
		t.Fatalf("holder %q", m2.UserName)
	}
	_, err := s.Add(ctx, owner, NewMethod{Kind: KindBank, Bank: "KHAN", Account: iban(3), UserName: "Дорж Бат"})
	wantCode(t, err, apperr.CodePayHolderMismatch)
	_, err = s.Update(ctx, owner, m.ID, NewMethod{Kind: KindQPay, Account: "99112233", UserName: "Дорж Бат"})
	wantCode(t, err, apperr.CodePayHolderMismatch)
	_, err = s.Add(ctx, stranger, NewMethod{Kind: KindQPay, Account: "99112233", UserName: "Anyone"})
	wantCode(t, err, apperr.CodePayHolderUnverified)
	_, err = s.Add(ctx, "broken", NewMethod{Kind: KindQPay, Account: "99112233"})
	wantCode(t, err, apperr.CodeInternal)

	// A name verified again after a change is taken by the next edit.
	names[owner] = "Болд Батын"
	up, err := s.Update(ctx, owner, m.ID, NewMethod{Kind: KindQPay, Account: "99112234"})
	wantCode(t, err, "")
	if up.UserName != "Болд Батын" {
		t.Fatalf("holder after update %q", up.UserName)
	}
}

// Thirty concurrent adds of distinct accounts: exactly MaxMethods succeed
// and the rest answer CodePayTooMany; a delete makes room for one more.
func TestLimitUnderConcurrentAdds(t *testing.T) {
	s := newService(t, Options{})
	const tries = 30
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		ok, full int
		other    []error
	)
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Add(ctx, owner, bankMethod(i))
			mu.Lock()
			defer mu.Unlock()
			var ae *apperr.Error
			switch {
			case err == nil:
				ok++
			case errors.As(err, &ae) && ae.Entry.Code == apperr.CodePayTooMany:
				full++
			default:
				other = append(other, err)
			}
		}()
	}
	wg.Wait()
	if ok != MaxMethods || full != tries-MaxMethods || len(other) != 0 {
		t.Fatalf("%d added, %d refused as full, other errors %v", ok, full, other)
	}
	list, _ := s.List(ctx, owner)
	if len(list) != MaxMethods {
		t.Fatalf("%d methods listed", len(list))
	}
	_, err := s.Add(ctx, owner, bankMethod(100))
	wantCode(t, err, apperr.CodePayTooMany)
	wantCode(t, s.Delete(ctx, owner, list[0].ID), "")
	mustAdd(t, s, owner, bankMethod(100))
	_, err = s.Add(ctx, owner, bankMethod(101))
	wantCode(t, err, apperr.CodePayTooMany)
}

// One account (kind and normalized account) is saved once per user, even
// by concurrent adds; the same number under another kind is another
// account, and a deleted method's account is free again.
func TestDuplicateAccount(t *testing.T) {
	s := newService(t, Options{})
	m := mustAdd(t, s, owner, bankMethod(5))
	// The same IBAN typed as 18 digits, at another bank.
	_, err := s.Add(ctx, owner, NewMethod{Kind: KindBank, Bank: "GOLOMT", Account: "000000000000000005", UserName: "Bold Bat"})
	wantCode(t, err, apperr.CodePayDuplicate)

	q := mustAdd(t, s, owner, NewMethod{Kind: KindQPay, Account: "99112233", UserName: "Bold Bat"})
	mustAdd(t, s, owner, NewMethod{Kind: KindSocialPay, Account: "99112233", UserName: "Bold Bat"})
	_, err = s.Add(ctx, owner, NewMethod{Kind: KindQPay, Account: "9911 2233", UserName: "Bold Bat"})
	wantCode(t, err, apperr.CodePayDuplicate)

	// An update onto another method's account is refused; onto its own
	// account (another bank, holder spelling) it is not.
	_, err = s.Update(ctx, owner, q.ID, bankMethod(5))
	wantCode(t, err, apperr.CodePayDuplicate)
	if got := find(t, s, owner, q.ID); got != q {
		t.Fatalf("refused update changed the method: %+v", got)
	}
	_, err = s.Update(ctx, owner, m.ID, NewMethod{Kind: KindBank, Bank: "GOLOMT", Account: iban(5), UserName: "Bold Bat"})
	wantCode(t, err, "")

	// Moving an account frees the old one; deleting frees it too.
	_, err = s.Update(ctx, owner, m.ID, bankMethod(6))
	wantCode(t, err, "")
	mustAdd(t, s, owner, bankMethod(5))
	_, err = s.Add(ctx, owner, bankMethod(6))
	wantCode(t, err, apperr.CodePayDuplicate)
	wantCode(t, s.Delete(ctx, owner, m.ID), "")
	mustAdd(t, s, owner, bankMethod(6))

	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		won  int
		errs []error
	)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Add(ctx, owner, NewMethod{Kind: KindQPay, Account: "88776655", UserName: "Bold Bat"})
			mu.Lock()
			defer mu.Unlock()
			var ae *apperr.Error
			if err == nil {
				won++
			} else if !errors.As(err, &ae) || ae.Entry.Code != apperr.CodePayDuplicate {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	if won != 1 || len(errs) != 0 {
		t.Fatalf("%d concurrent adds of one account succeeded; other errors %v", won, errs)
	}
}

// Get hands the ads the caller's open methods of the ids, in order; a
// closed, foreign, deleted or malformed id fails the whole call.
func TestGet(t *testing.T) {
	s := newService(t, Options{})
	a := mustAdd(t, s, owner, bankMethod(1))
	b := mustAdd(t, s, owner, NewMethod{Kind: KindQPay, Account: "99112233", UserName: "Bold Bat"})
	c := mustAdd(t, s, owner, NewMethod{Kind: KindSocialPay, Account: "99112233", UserName: "Bold Bat"})
	foreign := mustAdd(t, s, stranger, bankMethod(9))

	got, err := s.Get(ctx, owner, []string{b.ID, a.ID, " " + b.ID + " "})
	wantCode(t, err, "")
	if len(got) != 2 || got[0] != b || got[1] != a {
		t.Fatalf("got %+v", got)
	}
	if got, err := s.Get(ctx, owner, nil); err != nil || len(got) != 0 {
		t.Fatalf("no ids: %v %v", got, err)
	}

	_, err = s.SetOpen(ctx, owner, c.ID, false)
	wantCode(t, err, "")
	_, err = s.Get(ctx, owner, []string{a.ID, c.ID})
	wantCode(t, err, apperr.CodePayMethodNotFound)
	_, err = s.Get(ctx, owner, []string{a.ID, foreign.ID})
	wantCode(t, err, apperr.CodePayMethodNotFound)
	_, err = s.Get(ctx, owner, []string{"0123456789abcdef"})
	wantCode(t, err, apperr.CodePayMethodNotFound)
	_, err = s.Get(ctx, owner, []string{"P2PPAY#x"})
	wantCode(t, err, apperr.CodePayMethodNotFound)
	wantCode(t, s.Delete(ctx, owner, a.ID), "")
	_, err = s.Get(ctx, owner, []string{a.ID})
	wantCode(t, err, apperr.CodePayMethodNotFound)

	_, err = s.SetOpen(ctx, owner, c.ID, true)
	wantCode(t, err, "")
	got, err = s.Get(ctx, owner, []string{c.ID})
	wantCode(t, err, "")
	if len(got) != 1 || got[0].ID != c.ID || !got[0].Open {
		t.Fatalf("reopened %+v", got)
	}
}

// Concurrent edits of one method are serialized by its version: every
// switch lands, none overwrites another's change with what it read.
func TestConcurrentEdits(t *testing.T) {
	s := newService(t, Options{})
	m := mustAdd(t, s, owner, bankMethod(1))
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := range 2 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := s.SetOpen(ctx, owner, m.ID, i%2 == 0)
			errs <- err
		}()
		go func() {
			defer wg.Done()
			_, err := s.Update(ctx, owner, m.ID, NewMethod{Kind: KindBank, Bank: "GOLOMT", Account: iban(1), UserName: "Bold Bat"})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		wantCode(t, err, "")
	}
	l, _ := s.List(ctx, owner)
	if len(l) != 1 || l[0].Bank != "GOLOMT" || l[0].ver < 2 {
		t.Fatalf("after concurrent edits %+v", l)
	}
}

// hookStore runs before once, ahead of the first transaction it is given:
// another writer that gets in between a read and its write.
type hookStore struct {
	store.Store
	once   sync.Once
	before func()
}

func (h *hookStore) Transact(ctx context.Context, ops []store.Op) error {
	h.once.Do(h.before)
	return h.Store.Transact(ctx, ops)
}

// An update whose method another update changed after it was read does
// not write over it from a stale read: it reads again, so the account the
// other update claimed is released, not left claimed by nobody.
func TestUpdateOvertaken(t *testing.T) {
	base := newStore(t)
	s := newService(t, Options{Store: base})
	m := mustAdd(t, s, owner, bankMethod(1))

	hook := &hookStore{Store: base}
	hooked := newService(t, Options{Store: hook})
	hook.before = func() {
		_, err := s.Update(ctx, owner, m.ID, bankMethod(2))
		wantCode(t, err, "")
	}
	up, err := hooked.Update(ctx, owner, m.ID, bankMethod(3))
	wantCode(t, err, "")
	if up.Account != iban(3) || up.ver != 3 {
		t.Fatalf("updated %+v", up)
	}
	// Neither the first account nor the overtaking one stays claimed.
	mustAdd(t, s, owner, bankMethod(1))
	mustAdd(t, s, owner, bankMethod(2))
	_, err = s.Add(ctx, owner, bankMethod(3))
	wantCode(t, err, apperr.CodePayDuplicate)
}
