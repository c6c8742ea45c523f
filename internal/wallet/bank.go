package wallet

import (
	"context"
	"errors"
	"sort"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/store"
)

// MaxBankAccounts bounds one user's saved bank accounts.
const MaxBankAccounts = 20

// Bank is one entry of the payment list (the banks a user can add an
// account of).
type Bank struct {
	ID string `json:"id"`
	// Payment is the value add-bank sends as payment (the id is accepted too).
	Payment string `json:"payment"`
	Title   string `json:"title"`
	TitleMN string `json:"titleMn"`
	Icon    string `json:"icon"`
}

// Banks is the seeded payment list: the Mongolian banks.
func Banks() []Bank {
	return []Bank{
		{ID: "1", Payment: "KHAN", Title: "Khan Bank", TitleMN: "Хаан банк", Icon: "/banks/khan.svg"},
		{ID: "2", Payment: "GOLOMT", Title: "Golomt Bank", TitleMN: "Голомт банк", Icon: "/banks/golomt.svg"},
		{ID: "3", Payment: "TDB", Title: "Trade and Development Bank", TitleMN: "Худалдаа хөгжлийн банк", Icon: "/banks/tdb.svg"},
		{ID: "4", Payment: "XAC", Title: "XacBank", TitleMN: "Хас банк", Icon: "/banks/xac.svg"},
		{ID: "5", Payment: "STATE", Title: "State Bank", TitleMN: "Төрийн банк", Icon: "/banks/state.svg"},
		{ID: "6", Payment: "CAPITRON", Title: "Capitron Bank", TitleMN: "Капитрон банк", Icon: "/banks/capitron.svg"},
		{ID: "7", Payment: "BOGD", Title: "Bogd Bank", TitleMN: "Богд банк", Icon: "/banks/bogd.svg"},
		{ID: "8", Payment: "MBANK", Title: "M Bank", TitleMN: "М банк", Icon: "/banks/mbank.svg"},
		{ID: "9", Payment: "ARIG", Title: "Arig Bank", TitleMN: "Ариг банк", Icon: "/banks/arig.svg"},
		{ID: "10", Payment: "NIBANK", Title: "National Investment Bank", TitleMN: "Үндэсний хөрөнгө оруулалтын банк", Icon: "/banks/nibank.svg"},
		{ID: "11", Payment: "TRANSBANK", Title: "Transport and Development Bank", TitleMN: "Тээвэр хөгжлийн банк", Icon: "/banks/transbank.svg"},
		{ID: "12", Payment: "CKBANK", Title: "Chinggis Khaan Bank", TitleMN: "Чингис хаан банк", Icon: "/banks/ckbank.svg"},
	}
}

// bankByPayment finds a bank by its payment value or id.
func bankByPayment(p string) (Bank, bool) {
	p = strings.TrimSpace(p)
	for _, b := range Banks() {
		if strings.EqualFold(b.Payment, p) || b.ID == p {
			return b, true
		}
	}
	return Bank{}, false
}

// BankAccount is one of a user's saved bank accounts (spec §3: id, title,
// account, userName, icon).
type BankAccount struct {
	ID string `json:"id"`
	// Title is the bank's name; TitleMN its Mongolian name (from the payment
	// list, "" for a bank no longer on it).
	Title   string `json:"title"`
	TitleMN string `json:"titleMn"`
	// Account is the IBAN: MN and 18 digits.
	Account  string `json:"account"`
	UserName string `json:"userName" doc:"account holder: the user's real name"`
	Icon     string `json:"icon"`
	Payment  string `json:"payment" doc:"the bank's payment value"`
	Ctime    int64  `json:"ctime" doc:"Unix ms"`
}

func bankKey(uid, id string) store.Key { return store.Key{PK: walletPK(uid), SK: "BANK#" + id} }

// ibanClaimKey is the item that binds an IBAN to the one user who saved it
// (attribute uid). A bank account serves one customer: an account shared by
// several users' withdrawals is how stolen or laundered funds leave an
// exchange, so a second user cannot add it while the first keeps it.
func ibanClaimKey(iban string) store.Key { return store.Key{PK: "BANKIBAN#" + iban, SK: "CLAIM"} }

// ownClaim is the condition on an IBAN claim that the caller may write or
// delete it: there is none (accounts saved before claims existed have
// none), or it is the caller's.
func ownClaim(uid string) store.Cond {
	return store.Or(store.ItemNotExists(), store.Eq("uid", uid))
}

func bankAccountOf(it store.Item) BankAccount {
	a := BankAccount{
		ID: it.Str("id"), Title: it.Str("title"), Account: it.Str("account"), UserName: it.Str("userName"),
		Icon: it.Str("icon"), Payment: it.Str("payment"), Ctime: it.Int("ctime"),
	}
	if b, ok := bankByPayment(a.Payment); ok {
		a.TitleMN = b.TitleMN
	}
	return a
}

// AddBankInput is a fiat_user_bank_add call.
type AddBankInput struct {
	// Account is the IBAN as typed: 18 digits (MN is prepended) or MN and 18 digits.
	Account string
	// Payment is the bank (payment value or id of the payment list).
	Payment string
	Codes   Codes
}

// ibanError maps the coins package's IBAN rule failures to catalogue codes
// carrying the spec's texts.
func ibanError(err error) error {
	switch {
	case errors.Is(err, coins.ErrIBANRequired):
		return apperr.New(apperr.CodeWalletIBANRequired)
	case errors.Is(err, coins.ErrIBANDigits):
		return apperr.New(apperr.CodeWalletIBANDigits)
	default:
		return apperr.New(apperr.CodeWalletIBANFormat)
	}
}

// HolderName is the account holder shown read-only in the add-bank form:
// the user's real name; before identity verification gives one, the first
// and last name, else the e-mail, else the phone number.
func HolderName(u auth.User) string {
	if n := strings.TrimSpace(u.RealName); n != "" {
		return n
	}
	if n := strings.TrimSpace(strings.TrimSpace(u.FirstName) + " " + strings.TrimSpace(u.LastName)); n != "" {
		return n
	}
	if u.Email != "" {
		return u.Email
	}
	if u.Mobile != "" {
		return "+" + u.CountryCode + u.Mobile
	}
	return u.ID
}

// AddBankAccount saves a bank account after the IBAN rules (spec §5) and the
// codes the user's flags require; an IBAN another user has saved is refused
// (CodeWalletBankAccountTaken): the SMS code may have been requested under
// operationType 28 (addBank) or 6 (add bank SMS), both are accepted.
func (s *Service) AddBankAccount(ctx context.Context, uid string, in AddBankInput) (BankAccount, error) {
	u, err := s.user(ctx, uid)
	if err != nil {
		return BankAccount{}, err
	}
	bank, ok := bankByPayment(in.Payment)
	if !ok {
		return BankAccount{}, apperr.New(apperr.CodeWalletBankUnknown)
	}
	iban, err := coins.NormalizeIBAN(in.Account)
	if err != nil {
		return BankAccount{}, ibanError(err)
	}
	id := shortHash(iban)
	if _, err := s.st.Get(ctx, bankKey(uid, id)); err == nil {
		return BankAccount{}, apperr.New(apperr.CodeWalletBankAccountExists)
	} else if !errors.Is(err, store.ErrNotFound) {
		return BankAccount{}, internal(err)
	}
	list, err := s.BankAccounts(ctx, uid)
	if err != nil {
		return BankAccount{}, err
	}
	if len(list) >= MaxBankAccounts {
		return BankAccount{}, apperr.New(apperr.CodeWalletBankAccountsFull, MaxBankAccounts)
	}
	if err := s.checkFlagCodes(ctx, u, in.Codes, auth.OpAddBank, auth.OpTradePassword); err != nil {
		return BankAccount{}, err
	}
	k := bankKey(uid, id)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": id, "title": bank.Title, "account": iban,
		"userName": HolderName(u), "icon": bank.Icon, "payment": bank.Payment, "ctime": s.now().UnixMilli(),
	}
	ck := ibanClaimKey(iban)
	err = s.st.Transact(ctx, []store.Op{
		store.PutOp(it, store.ItemNotExists()),
		store.PutOp(store.Item{store.AttrPK: ck.PK, store.AttrSK: ck.SK, "uid": uid}, ownClaim(uid)),
	})
	var tc *store.TxCanceledError
	switch {
	case errors.As(err, &tc) && tc.Index == 1:
		return BankAccount{}, apperr.New(apperr.CodeWalletBankAccountTaken)
	case errors.Is(err, store.ErrConditionFailed):
		return BankAccount{}, apperr.New(apperr.CodeWalletBankAccountExists)
	case err != nil:
		return BankAccount{}, internal(err)
	}
	return bankAccountOf(it), nil
}

// BankAccounts lists the user's bank accounts, oldest first.
func (s *Service) BankAccounts(ctx context.Context, uid string) ([]BankAccount, error) {
	if uid == "" {
		return nil, apperr.New(apperr.CodeNotSignedIn)
	}
	items, err := s.queryAll(ctx, store.Query{PK: walletPK(uid), SK: store.SKPrefixed("BANK#")})
	if err != nil {
		return nil, err
	}
	out := make([]BankAccount, 0, len(items))
	for _, it := range items {
		out = append(out, bankAccountOf(it))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ctime < out[j].Ctime })
	return out, nil
}

// BankAccount returns one of the user's saved bank accounts (for the bank
// withdrawal); CodeWalletBankAccountNotFound when the user has no such account.
func (s *Service) BankAccount(ctx context.Context, uid, id string) (BankAccount, error) {
	if uid == "" {
		return BankAccount{}, apperr.New(apperr.CodeNotSignedIn)
	}
	id = strings.TrimSpace(id)
	if id == "" || len(id) > 64 || strings.Contains(id, "#") {
		return BankAccount{}, apperr.New(apperr.CodeWalletBankAccountNotFound)
	}
	it, err := s.st.Get(ctx, bankKey(uid, id))
	if errors.Is(err, store.ErrNotFound) {
		return BankAccount{}, apperr.New(apperr.CodeWalletBankAccountNotFound)
	}
	if err != nil {
		return BankAccount{}, internal(err)
	}
	return bankAccountOf(it), nil
}

// DeleteBankAccount removes one of the user's bank accounts.
func (s *Service) DeleteBankAccount(ctx context.Context, uid, id string) error {
	acct, err := s.BankAccount(ctx, uid, id)
	if err != nil {
		return err
	}
	// The claim goes with the account, so the IBAN is free for another
	// user; the condition never removes another user's claim.
	err = s.st.Transact(ctx, []store.Op{
		store.DeleteOp(bankKey(uid, strings.TrimSpace(id)), store.ItemExists()),
		store.DeleteOp(ibanClaimKey(acct.Account), ownClaim(uid)),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeWalletBankAccountNotFound)
	}
	if err != nil {
		return internal(err)
	}
	return nil
}
