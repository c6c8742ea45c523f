package withdraw

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/wallet"
	"tenger/internal/workflow"
)

// Spec §8 errorMsg keys of the withdraw submit.
const (
	ErrorMsgBelowMin = "the.amount.is.not.enough"
	ErrorMsgAboveMax = "the.amount.is.exceeded"
)

// Operation types of the withdrawal codes (spec §7).
const (
	OpEmailCode = auth.OpWithdrawEmail // 17
	OpSMSCode   = auth.OpWithdraw      // 10
)

// Codes are the verification codes of a submit.
type Codes = auth.Codes

// CheckAmount validates a typed amount and fee against a chain's rules:
// digits with an optional decimal point at the chain's precision, at least
// withdraw_min (errorMsg the.amount.is.not.enough) and at most withdraw_max
// (errorMsg the.amount.is.exceeded), and a fee equal to the configured fee
// (an empty fee means the configured one). The amount is what is debited;
// amount - fee is what is sent.
func CheckAmount(cfg coins.ChainConfig, amount, fee string) (decimal.Decimal, decimal.Decimal, error) {
	amt, err := coins.ParseAmount(strings.TrimSpace(amount), cfg.Precision)
	if err != nil {
		return decimal.Zero, decimal.Zero, apperr.New(apperr.CodeAmountInvalid, cfg.Precision)
	}
	if amt.LessThan(cfg.WithdrawMin) {
		return decimal.Zero, decimal.Zero, apperr.New(apperr.CodeAmountBelowMin, cfg.WithdrawMin.String()).WithErrorMsg(ErrorMsgBelowMin)
	}
	if amt.GreaterThan(cfg.WithdrawMax) {
		return decimal.Zero, decimal.Zero, apperr.New(apperr.CodeAmountAboveMax, cfg.WithdrawMax.String()).WithErrorMsg(ErrorMsgAboveMax)
	}
	f := cfg.WithdrawFee
	if fee = strings.TrimSpace(fee); fee != "" {
		given, err := decimal.NewFromString(fee)
		if err != nil || len(fee) > coins.MaxAmountLen || !given.Equal(cfg.WithdrawFee) {
			return decimal.Zero, decimal.Zero, apperr.New(apperr.CodeFeeMismatch, cfg.WithdrawFee.String())
		}
	}
	if !amt.GreaterThan(f) {
		return decimal.Zero, decimal.Zero, apperr.New(apperr.CodeAmountBelowMin, cfg.WithdrawMin.String()).WithErrorMsg(ErrorMsgBelowMin)
	}
	return amt, f, nil
}

// ConfirmInput is a confirm_withdraw call.
type ConfirmInput struct {
	// RequestID is the client's idempotency key (optional; derived from
	// the request when empty).
	RequestID string
	Symbol    string
	// Chain is the chain (the spec's trustType).
	Chain string
	// Address may carry the memo after an underscore.
	Address   string
	Memo      string
	AddressID string
	Amount    string
	Fee       string
	Codes     Codes
}

// Result is what a submit answers.
type Result struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	// URL is the bank's confirmation page (bank withdrawals).
	URL string `json:"url"`
}

// submission is a validated withdrawal about to be written and held.
type submission struct {
	id, kind            string
	coin                coins.Coin
	cfg                 coins.ChainConfig
	address, memo, aid  string
	bankName, accountNo string
	accountName, bankID string
	// bankNameMN is the bank's Mongolian name when the account was used.
	bankNameMN  string
	amount, fee decimal.Decimal
	codes       Codes
	// apiKey is the API key that asked for the withdrawal (ConfirmByKey):
	// its withdraw permission, which needs an IP restriction, stands in
	// for the codes.
	apiKey string
}

// Confirm is confirm_withdraw: validate, check limits and codes, write the
// withdrawal and start its workflow in one transaction, then hold the
// amount.
func (s *Service) Confirm(ctx context.Context, uid string, in ConfirmInput) (Result, error) {
	return s.confirm(ctx, uid, in, "")
}

// ConfirmByKey is a chain withdrawal an API key asks for (the
// Binance-compatible /sapi/v1/capital/withdraw/apply): the same address,
// amount, limit, lock and address-book checks, workflow and record as
// Confirm, authorized by the key's withdraw permission (which needs an IP
// restriction) instead of codes. The record names the key.
func (s *Service) ConfirmByKey(ctx context.Context, uid, apiKey string, in ConfirmInput) (Result, error) {
	if apiKey == "" {
		return Result{}, apperr.New(apperr.CodeNotSignedIn)
	}
	return s.confirm(ctx, uid, in, apiKey)
}

func (s *Service) confirm(ctx context.Context, uid string, in ConfirmInput, apiKey string) (Result, error) {
	if uid == "" {
		return Result{}, apperr.New(apperr.CodeNotSignedIn)
	}
	coin, cfg, err := deposit.Resolve(s.o.Coins, in.Symbol, in.Chain, deposit.DirWithdraw)
	if err != nil {
		return Result{}, err
	}
	if cfg.IsBank() {
		return Result{}, apperr.New(apperr.CodeBankOnly, withdrawCode(coin))
	}
	address, memo, err := checkAddress(cfg, strings.TrimSpace(in.Address), strings.TrimSpace(in.Memo))
	if err != nil {
		return Result{}, err
	}
	if err := s.notOwnAddress(ctx, uid, cfg.Name, address, memo); err != nil {
		return Result{}, err
	}
	amt, fee, err := CheckAmount(cfg, in.Amount, in.Fee)
	if err != nil {
		return Result{}, err
	}
	key := in.RequestID
	if key == "" {
		key = strings.Join([]string{"derived", coin.Symbol, cfg.Name, address, memo, amt.String(), in.Codes.Email, in.Codes.SMS, in.Codes.Google}, "|")
	}
	if on, err := s.o.Wallet.VerifyAddressOn(ctx, uid); err != nil {
		return Result{}, err
	} else if on {
		saved, err := s.o.Wallet.IsSavedAddress(ctx, uid, coin.Symbol, cfg.Name, address, memo)
		if err != nil {
			return Result{}, err
		}
		if !saved {
			return Result{}, apperr.New(apperr.CodeAddressNotSaved)
		}
	}
	return s.submit(ctx, uid, submission{id: withdrawalID(uid, key), kind: KindChain, coin: coin, cfg: cfg,
		address: address, memo: memo, aid: clip(in.AddressID, 64), amount: amt, fee: fee, codes: in.Codes, apiKey: apiKey})
}

// BankInput is a bank withdrawal (POST /bank/v2/withdraw-req).
type BankInput struct {
	RequestID string
	// UserID must be the signed-in user.
	UserID      string
	Amount      string
	BankAccName string
	BankAccNo   string
	BankName    string
	// BankAccountID picks the saved account directly (optional).
	BankAccountID string
	// Code is the withdraw code from the page URL (MONT); optional.
	Code  string
	Codes Codes
}

// ConfirmBank holds MNT and starts a bank withdrawal to one of the user's
// saved bank accounts; the answer's URL is the bank's confirmation page.
func (s *Service) ConfirmBank(ctx context.Context, uid string, in BankInput) (Result, error) {
	if uid == "" {
		return Result{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if strings.TrimSpace(in.UserID) != uid {
		return Result{}, apperr.New(apperr.CodeUserMismatch)
	}
	fiat, ok := s.o.Coins.Fiat()
	if !ok {
		return Result{}, apperr.New(apperr.CodeCoinUnknown)
	}
	if code := strings.TrimSpace(in.Code); code != "" {
		if c, ok := s.o.Coins.Coin(code); !ok || c.Symbol != fiat.Symbol {
			return Result{}, apperr.New(apperr.CodeBankOnly, withdrawCode(fiat))
		}
	}
	_, cfg, err := deposit.Resolve(s.o.Coins, fiat.Symbol, coins.Bank, deposit.DirWithdraw)
	if err != nil {
		return Result{}, err
	}
	acct, err := s.findBankAccount(ctx, uid, in)
	if err != nil {
		return Result{}, err
	}
	amt, fee, err := CheckAmount(cfg, in.Amount, "")
	if err != nil {
		return Result{}, err
	}
	key := in.RequestID
	if key == "" {
		key = strings.Join([]string{"bank", acct.ID, amt.String(), in.Codes.Email, in.Codes.SMS, in.Codes.Google}, "|")
	}
	return s.submit(ctx, uid, submission{id: withdrawalID(uid, key), kind: KindBank, coin: fiat, cfg: cfg,
		address: acct.Account, bankName: acct.Title, bankNameMN: acct.TitleMN, accountNo: acct.Account, accountName: acct.UserName, bankID: acct.ID,
		amount: amt, fee: fee, codes: in.Codes})
}

func (s *Service) findBankAccount(ctx context.Context, uid string, in BankInput) (wallet.BankAccount, error) {
	if id := strings.TrimSpace(in.BankAccountID); id != "" {
		b, err := s.o.Wallet.BankAccount(ctx, uid, id)
		if err != nil {
			return wallet.BankAccount{}, apperr.New(apperr.CodeBankAccountUnknown)
		}
		return b, nil
	}
	iban, err := coins.NormalizeIBAN(in.BankAccNo)
	if err != nil {
		return wallet.BankAccount{}, apperr.New(apperr.CodeBankAccountUnknown)
	}
	list, err := s.o.Wallet.BankAccounts(ctx, uid)
	if err != nil {
		return wallet.BankAccount{}, err
	}
	for _, b := range list {
		if b.Account == iban {
			return b, nil
		}
	}
	return wallet.BankAccount{}, apperr.New(apperr.CodeBankAccountUnknown)
}

// submit runs the checks shared by chain and bank withdrawals, writes the
// withdrawal, then holds.
func (s *Service) submit(ctx context.Context, uid string, sub submission) (Result, error) {
	// A retried submit (same idempotency key) answers what the first did,
	// before codes are checked: they were used up by the first.
	if r, ok, err := s.submitted(ctx, uid, sub); ok || err != nil {
		return r, err
	}
	now := s.o.Now()
	until, err := s.o.Wallet.WithdrawLockedUntil(ctx, uid)
	if err != nil {
		return Result{}, err
	}
	if until.After(now) {
		return Result{}, apperr.New(apperr.CodeWithdrawLocked, until.UTC().Format("2006-01-02 15:04")).
			WithData(map[string]int64{"until": until.UnixMilli()})
	}
	bal, err := s.o.Ledger.Balance(ctx, ledger.UserAccount(uid, ledger.Spot), sub.coin.Symbol)
	if err != nil {
		return Result{}, internal(err)
	}
	if bal.Available.LessThan(sub.amount) {
		return Result{}, apperr.New(apperr.CodeInsufficientFunds)
	}
	usdt, err := s.o.Wallet.USDTValue(ctx, sub.coin.Symbol, sub.amount)
	if err != nil {
		return Result{}, err
	}
	if _, err := s.checkDailyLimit(ctx, uid, usdt); err != nil {
		return Result{}, err
	}
	if err := s.checkSubmitCodes(ctx, uid, sub); err != nil {
		// A retry sent while the first submit was still running finds its
		// codes used up by that submit: once the first has committed, it
		// answers what the first made rather than "code expired".
		if ae := apperr.As(err); ae.Entry.Code == apperr.CodeCodeExpired || ae.Entry.Code == apperr.CodeCodeBurned {
			for wait := 0; wait < retryWaits; wait++ {
				if r, ok, gerr := s.submitted(ctx, uid, sub); ok || gerr != nil {
					return r, gerr
				}
				select {
				case <-ctx.Done():
					return Result{}, err
				case <-time.After(retryWait):
				}
			}
		}
		return Result{}, err
	}
	rec := Record{ID: sub.id, UID: uid, Kind: sub.kind, Coin: sub.coin.Symbol, Chain: sub.cfg.Name, Address: sub.address,
		Memo: sub.memo, AddressID: sub.aid, Amount: sub.amount, Fee: sub.fee, Net: sub.amount.Sub(sub.fee), USDT: usdt,
		Status: StatusPending, BankName: sub.bankName, BankNameMN: sub.bankNameMN, AccountNo: sub.accountNo, AccountName: sub.accountName,
		Created: now.UnixMilli(), Updated: now.UnixMilli()}
	if sub.kind == KindBank && s.o.Bank != nil {
		rec.URL = s.o.Bank.ConfirmURL(sub.id)
	}
	k := wdKey(sub.id)
	item := store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "id": rec.ID, "uid": uid, "kind": rec.Kind, "coin": rec.Coin,
		"chain": rec.Chain, "address": rec.Address, "memo": rec.Memo, "addressId": rec.AddressID, "amount": rec.Amount,
		"fee": rec.Fee, "net": rec.Net, "usdt": rec.USDT, "status": rec.Status, "bankName": rec.BankName, "bankNameMn": rec.BankNameMN,
		"accountNo": rec.AccountNo, "accountName": rec.AccountName, "bankAccountId": sub.bankID, "url": rec.URL,
		"apiKey":  sub.apiKey,
		"created": rec.Created, "updated": rec.Updated,
		store.AttrGSI1PK: "WDHIST#" + uid, store.AttrGSI1SK: deposit.HistoryKey(now, rec.ID)}
	start, err := workflow.StartOp(s.Steps().Definition(), rec.ID, StepInput{WithdrawalID: rec.ID}, now)
	if err != nil {
		return Result{}, internal(err)
	}
	// The codes are used up now, so a lost race on the user's guard below
	// re-checks the limit and tries again rather than asking for new codes.
	for try := 0; ; try++ {
		ver, err := s.checkDailyLimit(ctx, uid, usdt)
		if err != nil {
			return Result{}, err
		}
		err = s.o.Store.Transact(ctx, []store.Op{store.PutOp(item, store.ItemNotExists()), start,
			store.UpdateOp(guardKey(uid), store.NewUpdate().Set(store.AttrVersion, ver+1), store.VersionIs(ver))})
		var tc *store.TxCanceledError
		switch {
		case errors.As(err, &tc) && tc.Index == 2 && try < 10:
			continue // another submit of this user committed meanwhile
		case errors.As(err, &tc):
			// A concurrent submit with the same key won; answer what it made.
			r, gerr := s.GetOwn(ctx, uid, rec.ID)
			if gerr != nil {
				return Result{}, gerr
			}
			return answer(r)
		case err != nil:
			return Result{}, internal(err)
		}
		break
	}
	// The record and its workflow exist: the workflow sees the withdrawal
	// through to its end from here, whatever becomes of this call.
	if s.start != nil {
		defer s.start.Wake()
	}
	held, err := s.hold(ctx, rec)
	if err != nil {
		// The Hold step makes the hold (or fails the withdrawal).
		s.o.Log.Warn().Err(err).Str("withdrawal", rec.ID).Msg("withdrawal submitted, its hold left to the workflow")
		return Result{}, internal(err)
	}
	if held.Status == StatusFailed {
		// The balance moved since it was checked (or the withdrawal
		// failed meanwhile); a FAILED withdrawal counts against no limit.
		return answer(held)
	}
	s.o.Log.Info().Str("withdrawal", rec.ID).Str("coin", rec.Coin).Str("chain", rec.Chain).Str("amount", rec.Amount.String()).Msg("withdrawal held")
	s.notify(ctx, rec)
	return Result{ID: rec.ID, Status: rec.Status, URL: rec.URL}, nil
}

// answer is what a submit answers for its withdrawal: one failed for a
// short balance is CodeInsufficientFunds, as the submit that failed it
// answered.
func answer(r Record) (Result, error) {
	if r.Status == StatusFailed && r.Reason == ReasonInsufficient {
		return Result{}, apperr.New(apperr.CodeInsufficientFunds)
	}
	return Result{ID: r.ID, Status: r.Status, URL: r.URL}, nil
}

// How long a submit whose codes were used up looks for a concurrent submit
// of the same idempotency key to commit (a few store round trips).
const (
	retryWaits = 6
	retryWait  = 50 * time.Millisecond
)

// submitted answers a submit whose idempotency key made a withdrawal
// already (ok); another user's withdrawal is never shown.
func (s *Service) submitted(ctx context.Context, uid string, sub submission) (Result, bool, error) {
	r, err := s.Get(ctx, sub.id)
	switch {
	case err == nil && r.UID != uid:
		return Result{}, true, apperr.New(apperr.CodeWithdrawalUnknown)
	case err == nil && !sameWithdrawal(r, sub):
		// A client that reuses its requestId for another withdrawal must
		// not be told that this one was made.
		return Result{}, true, apperr.New(apperr.CodeWithdrawRequestReused)
	case err == nil:
		res, err := answer(r)
		return res, true, err
	case errors.Is(err, apperr.New(apperr.CodeWithdrawalUnknown)):
		return Result{}, false, nil
	}
	return Result{}, false, err
}

// sameWithdrawal reports whether a stored withdrawal is what sub asks for:
// the same coin, chain, destination and amount. The address is compared in
// its canonical form (chain.SameAddress), so a retry that spells the same
// address another way (BC1Q... for bc1q...) is the same withdrawal.
func sameWithdrawal(r Record, sub submission) bool {
	return r.Kind == sub.kind && r.Coin == sub.coin.Symbol && r.Chain == sub.cfg.Name && sameAddress(sub.cfg, r.Address, sub.address) &&
		r.Memo == sub.memo && r.AccountNo == sub.accountNo && r.Amount.Equal(sub.amount)
}

// sameAddress compares two destination addresses of a rail: canonical forms
// on a chain, bytes otherwise.
func sameAddress(cfg coins.ChainConfig, a, b string) bool {
	if ac, ok := cfg.AddressChain(); ok {
		return chain.SameAddress(ac, a, b)
	}
	return a == b
}

// checkSubmitCodes checks a submit's codes, unless an API key with the
// withdraw permission asked for it.
func (s *Service) checkSubmitCodes(ctx context.Context, uid string, sub submission) error {
	if sub.apiKey != "" {
		return nil
	}
	return s.checkCodes(ctx, uid, sub.codes)
}

// checkCodes requires and verifies the codes the user's flags call for
// (spec §5): all required codes must be present before any is checked, and
// none is used up unless all are right.
func (s *Service) checkCodes(ctx context.Context, uid string, c Codes) error {
	u, err := s.o.Auth.User(ctx, uid)
	if err != nil {
		return err
	}
	return auth.VerifyWithdrawalCodes(ctx, s.o.Auth, u, c, OpSMSCode, OpEmailCode)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// withdrawCode is the code the withdraw screens use for a coin (MONT for the fiat).
func withdrawCode(c coins.Coin) string {
	if c.WithdrawCode != "" {
		return c.WithdrawCode
	}
	return c.Symbol
}

// guardKey is the per-user item every submit bumps (version condition) in
// the transaction that writes its withdrawal: submits of one user
// serialize, so the 24 h limit read before still holds when it commits.
func guardKey(uid string) store.Key { return store.Key{PK: "WDGUARD#" + uid, SK: "G"} }

// withinLimit reports whether usdt more on top of used stays within the
// rolling 24 h limit (the submit's check, and what get_cost's amount left
// in the coin is computed against).
func withinLimit(used, usdt, limit decimal.Decimal) bool { return !used.Add(usdt).GreaterThan(limit) }

// limitShown is what the screens show of the 24 h limit, in USDT at 2
// decimals: what was used rounded up and what is left as the rest, so the
// two always add up to the limit and neither promises more than is left.
func limitShown(used, limit decimal.Decimal) (usedText, leftText string) {
	u := used.RoundCeil(2)
	return u.StringFixed(2), coins.FormatFixed(decimal.Max(limit.Sub(u), decimal.Zero), 2)
}

// checkDailyLimit reads the user's guard version, then checks that usdt
// more stays within the user's rolling 24 h limit (Options.Limits: it
// follows the user's verification level).
func (s *Service) checkDailyLimit(ctx context.Context, uid string, usdt decimal.Decimal) (int64, error) {
	var ver int64
	it, err := s.o.Store.Get(ctx, guardKey(uid))
	switch {
	case err == nil:
		ver = it.Int(store.AttrVersion)
	case !errors.Is(err, store.ErrNotFound):
		return 0, internal(err)
	}
	used, err := s.usedToday(ctx, uid)
	if err != nil {
		return 0, internal(err)
	}
	lim, err := s.DailyLimitOf(ctx, uid)
	if err != nil {
		return 0, err
	}
	if !withinLimit(used, usdt, lim) {
		_, left := limitShown(used, lim)
		limit := coins.FormatFixed(lim, 2)
		return 0, apperr.New(apperr.CodeDailyLimit, left, limit).WithData(map[string]string{"left": left, "limit": limit})
	}
	return ver, nil
}
