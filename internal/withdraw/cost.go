package withdraw

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// dailyWindow is the rolling window of the withdrawal limit.
const dailyWindow = 24 * time.Hour

// usedToday sums the USDT value of the user's withdrawals of the last 24 h
// that are held or settled (failed ones were released and do not count).
func (s *Service) usedToday(ctx context.Context, uid string) (decimal.Decimal, error) {
	now := s.o.Now()
	f := deposit.Filter{From: now.Add(-dailyWindow), To: now, Page: 1, PageSize: 1}
	used := decimal.Zero
	_, _, err := deposit.QueryHistory(ctx, s.o.Store, "WDHIST#"+uid, f, func(it store.Item) bool {
		if it.Str("uid") == uid && it.Str("status") != StatusFailed {
			used = used.Add(it.Dec("usdt"))
		}
		return false
	})
	return used, err
}

// leftInCoin is the rest of the 24 h limit in coin, given what was used
// (USDT): the largest amount on the coin's precision grid whose USDT value,
// by the valuation the submit uses (Wallet.USDTValue), passes withinLimit,
// so an amount on that grid passes the submit's limit check exactly when it
// is at most this. "" when the coin has no price, or the prices cannot be
// read now: the submit still checks.
func (s *Service) leftInCoin(ctx context.Context, symbol string, precision int32, used, limit decimal.Decimal) string {
	if precision < 0 {
		precision = 0
	}
	fits := func(amount decimal.Decimal) (bool, error) {
		usdt, err := s.o.Wallet.USDTValue(ctx, symbol, amount)
		return err == nil && withinLimit(used, usdt, limit), err
	}
	price, err := s.o.Wallet.USDTValue(ctx, symbol, decimal.NewFromInt(1))
	if err != nil || !price.IsPositive() {
		if err != nil && apperr.As(err).Entry.Code != apperr.CodeWalletNoPrice {
			s.o.Log.Warn().Err(err).Str("coin", symbol).Msg("withdraw cost: no 24 h limit in the coin")
		}
		return ""
	}
	left := decimal.Max(limit.Sub(used), decimal.Zero)
	unit := decimal.New(1, -precision)
	// The quotient is a first guess; the valuation itself decides the last unit.
	amount := left.DivRound(price, precision+4).Truncate(precision)
	for i := 0; ; i++ {
		ok, err := fits(amount)
		if err != nil {
			return ""
		}
		if ok {
			break
		}
		if !amount.IsPositive() {
			return coins.FormatFixed(decimal.Zero, precision) // nothing is left
		}
		if i == 4 {
			// The guess is not within a few units: say nothing rather
			// than something the submit would refuse.
			return ""
		}
		amount = decimal.Max(amount.Sub(unit), decimal.Zero)
	}
	for i := 0; i < 4; i++ {
		ok, err := fits(amount.Add(unit))
		if err != nil {
			return ""
		}
		if !ok {
			break
		}
		amount = amount.Add(unit)
	}
	return coins.FormatFixed(amount, precision)
}

// AddressEntry is a saved address of get_cost's userWithdrawAddrList.
type AddressEntry struct {
	ID        string `json:"id"`
	Address   string `json:"address" doc:"address_memo on memo chains"`
	Label     string `json:"label"`
	TrustType string `json:"trustType" doc:"the chain"`
}

// Factors says which codes confirm_withdraw needs from this user.
type Factors struct {
	NeedEmailCode  bool `json:"needEmailCode" doc:"e-mail code (operationType 17) when the account has an e-mail"`
	NeedSMSCode    bool `json:"needSmsCode" doc:"SMS code (operationType 10) when isOpenMobileCheck is 1, or when the account has no other factor"`
	NeedGoogleCode bool `json:"needGoogleCode" doc:"Google code when googleStatus is 1"`
}

// Cost is the get_cost answer (spec §3 withdraw cost info).
type Cost struct {
	Coin                       string         `json:"coin"`
	Chain                      string         `json:"chain"`
	FeeMin                     string         `json:"feeMin"`
	FeeMax                     string         `json:"feeMax"`
	DefaultFee                 string         `json:"defaultFee"`
	WithdrawMin                string         `json:"withdraw_min"`
	WithdrawMax                string         `json:"withdraw_max"`
	CanWithdrawAmount          string         `json:"can_withdraw_amount" doc:"available spot balance, 8 decimals"`
	LeftWithdrawDailyAmount    string         `json:"left_withdraw_daily_amount" doc:"USDT"`
	LeftWithdrawDailyCoin      string         `json:"left_withdraw_daily_coin_amount" doc:"the rest of the 24 h limit in the coin, truncated to precision: an amount at most this passes the limit check of the submit; empty when the coin has no price"`
	TotalWithdrawDailyMaxLimit string         `json:"total_withdraw_daily_max_limit" doc:"USDT: the user's limit, which follows the verification level (sumsub/v2/get_level_list)"`
	UsedWithdrawDailyAmount    string         `json:"used_withdraw_daily_amount" doc:"USDT"`
	MainChainNameTip           string         `json:"mainChainNameTip"`
	TagType                    int            `json:"tagType"`
	Precision                  int32          `json:"precision" doc:"decimals an amount may have"`
	UserWithdrawAddrList       []AddressEntry `json:"userWithdrawAddrList"`
	VerifyAddress              bool           `json:"verifyAddress" doc:"withdrawals only to saved addresses"`
	LockedUntil                int64          `json:"withdrawLockedUntil,omitempty" doc:"Unix ms; withdrawals banned until then after a trade-password change"`
	Factors
}

// factors applies spec §5 to the user's flags. An account with none of
// them (a phone sign-up with the SMS check off) still confirms with an SMS
// code: a session alone never moves money out.
func factors(u auth.User) Factors {
	email, sms, google := auth.WithdrawalFactors(u)
	return Factors{NeedEmailCode: email, NeedSMSCode: sms, NeedGoogleCode: google}
}

// Cost answers get_cost for a coin (and chain).
func (s *Service) Cost(ctx context.Context, uid, symbol, chainName string) (Cost, error) {
	coin, cfg, err := deposit.Resolve(s.o.Coins, symbol, chainName, deposit.DirWithdraw)
	if err != nil {
		return Cost{}, err
	}
	bal, err := s.o.Ledger.Balance(ctx, ledger.UserAccount(uid, ledger.Spot), coin.Symbol)
	if err != nil {
		return Cost{}, internal(err)
	}
	used, err := s.usedToday(ctx, uid)
	if err != nil {
		return Cost{}, internal(err)
	}
	limit, err := s.DailyLimitOf(ctx, uid)
	if err != nil {
		return Cost{}, err
	}
	usedText, leftText := limitShown(used, limit)
	leftCoin := s.leftInCoin(ctx, coin.Symbol, cfg.Precision, used, limit)
	u, err := s.o.Auth.User(ctx, uid)
	if err != nil {
		return Cost{}, err
	}
	c := Cost{
		Coin: coin.Symbol, Chain: cfg.Name,
		FeeMin: cfg.WithdrawFee.String(), FeeMax: cfg.WithdrawFee.String(), DefaultFee: cfg.WithdrawFee.String(),
		WithdrawMin:                coins.FormatFixed(cfg.WithdrawMin, coins.PrecisionWithdrawBounds),
		WithdrawMax:                coins.FormatFixed(cfg.WithdrawMax, coins.PrecisionWithdrawBounds),
		CanWithdrawAmount:          coins.FormatFixed(coins.TruncateToPrecision(bal.Available, cfg.Precision), coins.PrecisionWithdrawable),
		LeftWithdrawDailyAmount:    leftText,
		LeftWithdrawDailyCoin:      leftCoin,
		TotalWithdrawDailyMaxLimit: coins.FormatFixed(limit, 2),
		UsedWithdrawDailyAmount:    usedText,
		MainChainNameTip:           cfg.MainChainName, TagType: cfg.TagType, Precision: cfg.Precision,
		UserWithdrawAddrList: []AddressEntry{}, Factors: factors(u),
	}
	if !cfg.IsBank() {
		saved, err := s.o.Wallet.Addresses(ctx, uid, coin.Symbol)
		if err != nil {
			return Cost{}, err
		}
		for _, a := range saved {
			if a.Chain != cfg.Name {
				continue
			}
			c.UserWithdrawAddrList = append(c.UserWithdrawAddrList, AddressEntry{ID: a.ID, Address: chain.JoinAddressMemo(a.Address, a.Memo),
				Label: a.Label, TrustType: a.Chain})
		}
	}
	if c.VerifyAddress, err = s.o.Wallet.VerifyAddressOn(ctx, uid); err != nil {
		return Cost{}, err
	}
	until, err := s.o.Wallet.WithdrawLockedUntil(ctx, uid)
	if err != nil {
		return Cost{}, err
	}
	if !until.IsZero() {
		c.LockedUntil = until.UnixMilli()
	}
	return c, nil
}

// SettingsEntry is an addressList entry of the withdraw modal.
type SettingsEntry struct {
	Value string `json:"value" doc:"the address (address_memo), or the bank account id"`
	Label string `json:"label"`
	Code  string `json:"code" doc:"the address-book or bank-account id"`
}

// Settings is the withdraw modal's settings (spec §3).
type Settings struct {
	Coin  string `json:"coin"`
	Chain string `json:"chain"`
	// Withdrawable is the available balance (8 decimals).
	Withdrawable string `json:"withdrawable"`
	// WithdrawalLimit is the 24 h limit in USDT; WithdrawalUsed what was used.
	WithdrawalLimit string `json:"withdrawalLimit"`
	WithdrawalUsed  string `json:"withdrawalUsed"`
	WithdrawalLeft  string `json:"withdrawalLeft"`
	// WithdrawalLeftCoin is what is left in the coin itself (see Cost.LeftWithdrawDailyCoin).
	WithdrawalLeftCoin string          `json:"withdrawalLeftCoin" doc:"the rest of the 24 h limit in the coin, truncated to precision; empty when the coin has no price"`
	WithdrawMin        string          `json:"withdrawMin"`
	WithdrawMax        string          `json:"withdrawMax"`
	DefaultFee         string          `json:"defaultFee"`
	AddressList        []SettingsEntry `json:"addressList"`
	Factors
}

// Settings answers the withdraw modal's settings call (MONT for the bank).
func (s *Service) Settings(ctx context.Context, uid, symbol, chainName string) (Settings, error) {
	c, err := s.Cost(ctx, uid, symbol, chainName)
	if err != nil {
		return Settings{}, err
	}
	out := Settings{Coin: c.Coin, Chain: c.Chain, Withdrawable: c.CanWithdrawAmount, WithdrawalLimit: c.TotalWithdrawDailyMaxLimit,
		WithdrawalUsed: c.UsedWithdrawDailyAmount, WithdrawalLeft: c.LeftWithdrawDailyAmount,
		WithdrawalLeftCoin: c.LeftWithdrawDailyCoin, WithdrawMin: c.WithdrawMin,
		WithdrawMax: c.WithdrawMax, DefaultFee: c.DefaultFee, AddressList: []SettingsEntry{}, Factors: c.Factors}
	if c.Chain == coins.Bank {
		banks, err := s.o.Wallet.BankAccounts(ctx, uid)
		if err != nil {
			return Settings{}, err
		}
		for _, b := range banks {
			out.AddressList = append(out.AddressList, SettingsEntry{Value: b.Account, Label: b.Title, Code: b.ID})
		}
		return out, nil
	}
	for _, a := range c.UserWithdrawAddrList {
		out.AddressList = append(out.AddressList, SettingsEntry{Value: a.Address, Label: a.Label, Code: a.ID})
	}
	return out, nil
}

// ValidateAddress is validate_withdraw_address: nil (code 0) when the
// address (address_memo on memo chains) is valid on the chain and is not
// the deposit address of uid ("" skips that check).
func (s *Service) ValidateAddress(ctx context.Context, uid, symbol, chainName, address string) error {
	_, cfg, err := deposit.Resolve(s.o.Coins, symbol, chainName, deposit.DirWithdraw)
	if err != nil {
		return err
	}
	if cfg.IsBank() {
		if _, err := coins.NormalizeIBAN(address); err != nil {
			return apperr.New(apperr.CodeAddressInvalid, "IBAN")
		}
		return nil
	}
	a, m, err := checkAddress(cfg, address, "")
	if err != nil || uid == "" {
		return err
	}
	return s.notOwnAddress(ctx, uid, cfg.Name, a, m)
}

// notOwnAddress refuses the user's own deposit address as a withdrawal's
// destination (CodeWithdrawOwnAddress): the coins would only come back,
// less the fee.
func (s *Service) notOwnAddress(ctx context.Context, uid, chainName, address, memo string) error {
	if s.o.Deposits == nil {
		return nil
	}
	owner, err := s.o.Deposits.OwnerOf(ctx, chainName, address, memo)
	if err != nil {
		return internal(err)
	}
	if owner == uid {
		return apperr.New(apperr.CodeWithdrawOwnAddress)
	}
	return nil
}

// checkAddress splits address_memo, validates both parts and returns them.
func checkAddress(cfg coins.ChainConfig, address, memo string) (string, string, error) {
	ac, ok := cfg.AddressChain()
	if !ok {
		return "", "", apperr.New(apperr.CodeAddressInvalid, cfg.Name)
	}
	if len(address) > 200 || len(memo) > 200 {
		return "", "", apperr.New(apperr.CodeAddressInvalid, cfg.Name)
	}
	a, m := chain.ParseAddressMemo(ac, address)
	if memo != "" {
		m = memo
	}
	if err := chain.Validate(ac, a); err != nil {
		return "", "", apperr.New(apperr.CodeAddressInvalid, cfg.Name).WithCause(err)
	}
	if err := chain.ValidateMemo(ac, m); err != nil {
		return "", "", apperr.New(apperr.CodeMemoInvalid).WithCause(err)
	}
	return a, m, nil
}
