package httpapi

import (
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/wallet"
)

// Wallet accounts routes: balances and valuations, rate tables, transfers
// and their history, the address book and verify-address switch, bank
// accounts and the payment list, the trade password and the fee-coin switch.
// Every operation is served at /fe-ex-api/wallet/<operation name> and, where
// spec §7 names one, at the spec's own path too.

// CookieCurrency is the valuation currency cookie (spec §3, default USD).
const CookieCurrency = "user_Currency"

// walletHandle registers one handler at several paths.
func walletHandle[Req any, Resp any](r *Router, paths []string, opts RouteOpts, fn func(c *Call, req *Req) (Resp, error)) {
	for _, p := range paths {
		Handle(r, p, opts, fn)
	}
}

// walletCurrency picks the valuation currency: the body's currency field,
// else the user_Currency cookie, else USD.
func walletCurrency(c *Call, body string) wallet.Currency {
	if strings.TrimSpace(body) != "" {
		return wallet.NormalizeCurrency(body)
	}
	if ck, err := c.Req.Cookie(CookieCurrency); err == nil {
		return wallet.NormalizeCurrency(ck.Value)
	}
	return wallet.NormalizeCurrency("")
}

func walletShort(name, v string, n int) error {
	if len(v) > n {
		return apperr.Param(name + ": too long")
	}
	return nil
}

// WalletCurrencyReq carries the optional valuation currency.
type WalletCurrencyReq struct {
	Currency string `json:"currency" doc:"USD or MNT; default the user_Currency cookie, else USD"`
}

// Validate bounds the field.
func (r *WalletCurrencyReq) Validate() error { return walletShort("currency", r.Currency, 16) }

// WalletOverviewReq is get_overview_balance.
type WalletOverviewReq struct {
	CoinSymbol string `json:"coinSymbol" doc:"valuation coin, default BTC"`
	Currency   string `json:"currency" doc:"USD or MNT; default the user_Currency cookie, else USD"`
}

// Validate bounds the fields.
func (r *WalletOverviewReq) Validate() error {
	if err := walletShort("coinSymbol", r.CoinSymbol, 20); err != nil {
		return err
	}
	return walletShort("currency", r.Currency, 16)
}

// WalletFuturesBalanceReq is get_futures_balance.
type WalletFuturesBalanceReq struct {
	OnlyAccount FlexInt `json:"onlyAccount" doc:"1: only the account list"`
	Currency    string  `json:"currency"`
}

// Validate bounds the fields.
func (r *WalletFuturesBalanceReq) Validate() error { return walletShort("currency", r.Currency, 16) }

// WalletFuturesStatsReq is get_futures_balance_statistics.
type WalletFuturesStatsReq struct {
	StartDate  FlexString `json:"startDate" doc:"yyyy-mm-dd or Unix ms; default 7 days ago"`
	EndDate    FlexString `json:"endDate" doc:"yyyy-mm-dd or Unix ms; default yesterday"`
	CoinSymbol string     `json:"coinSymbol" doc:"default USDT"`
}

// Validate bounds the fields.
func (r *WalletFuturesStatsReq) Validate() error {
	if len(r.StartDate) > 32 || len(r.EndDate) > 32 {
		return apperr.Param("startDate/endDate: yyyy-mm-dd")
	}
	return walletShort("coinSymbol", r.CoinSymbol, 20)
}

// WalletTransferBase holds what every transfer carries.
type WalletTransferBase struct {
	Amount     FlexString `json:"amount" v:"required" doc:"digits with at most one decimal point, above 0"`
	CoinSymbol string     `json:"coinSymbol" v:"required"`
	RequestID  string     `json:"requestId" doc:"optional idempotency key: a retry with the same id is applied once"`
	ClientOid  string     `json:"clientOid" doc:"alias of requestId"`
}

func (b WalletTransferBase) requestID() string {
	if b.RequestID != "" {
		return b.RequestID
	}
	return b.ClientOid
}

func (b WalletTransferBase) check() error {
	if len(b.Amount) > 64 {
		return apperr.New(apperr.CodeWalletAmountTooLong)
	}
	if err := walletShort("coinSymbol", b.CoinSymbol, 20); err != nil {
		return err
	}
	if len(b.RequestID) > wallet.MaxRequestIDLen || len(b.ClientOid) > wallet.MaxRequestIDLen {
		return apperr.Param("requestId: too long")
	}
	return nil
}

// WalletOTCTransferReq is otc_transfer: account 1 is the spot (exchange)
// account, 2 the OTC account.
type WalletOTCTransferReq struct {
	WalletTransferBase
	FromAccount FlexInt `json:"fromAccount" v:"required" doc:"1 spot, 2 OTC"`
	ToAccount   FlexInt `json:"toAccount" v:"required" doc:"1 spot, 2 OTC"`
}

// Validate checks the accounts.
func (r *WalletOTCTransferReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	ok := func(v int64) bool { return v == 1 || v == 2 }
	if !ok(r.FromAccount.V) || !ok(r.ToAccount.V) || r.FromAccount.V == r.ToAccount.V {
		return apperr.New(apperr.CodeWalletTransferAccount)
	}
	return nil
}

// WalletFuturesTransferReq is futures_to_contract / futures_to_account.
type WalletFuturesTransferReq struct {
	WalletTransferBase
}

// Validate bounds the fields.
func (r *WalletFuturesTransferReq) Validate() error { return r.check() }

// WalletMarginTransferReq is margin_transfer.
type WalletMarginTransferReq struct {
	WalletTransferBase
	TransferType FlexInt `json:"transferType" v:"required" doc:"1 isolated in, 2 isolated out, 3 cross in, 4 cross out"`
	Symbol       string  `json:"symbol" doc:"the isolated pair (BTCUSDT); ignored for cross"`
}

// Validate checks the type.
func (r *WalletMarginTransferReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	if r.TransferType.V < 1 || r.TransferType.V > 4 {
		return apperr.Param("transferType: 1 isolated in, 2 isolated out, 3 cross in, 4 cross out")
	}
	if r.TransferType.V <= 2 && strings.TrimSpace(r.Symbol) == "" {
		return apperr.Param("symbol: required for isolated margin")
	}
	return walletShort("symbol", r.Symbol, 20)
}

// WalletMarginInfoReq is get_margin_cross_isolated.
type WalletMarginInfoReq struct {
	Type   FlexInt `json:"type" v:"required" doc:"1 cross (symbol is the coin), 0 or 2 isolated (symbol is the pair)"`
	Symbol string  `json:"symbol" v:"required"`
}

// Validate bounds the fields.
func (r *WalletMarginInfoReq) Validate() error { return walletShort("symbol", r.Symbol, 20) }

// WalletMarginListReq is get_margin_coin_list.
type WalletMarginListReq struct {
	Mode FlexInt `json:"mode" v:"required" doc:"1 cross, 2 isolated"`
}

// WalletTransferCoinsReq is get_transfer_coin_list.
type WalletTransferCoinsReq struct {
	Account string `json:"account" v:"required" doc:"otc, futures, margin_cross or margin_isolated"`
	Symbol  string `json:"symbol" doc:"the isolated pair"`
}

// Validate bounds the fields.
func (r *WalletTransferCoinsReq) Validate() error {
	if err := walletShort("account", r.Account, 32); err != nil {
		return err
	}
	return walletShort("symbol", r.Symbol, 20)
}

// WalletHistoryReq filters the transfer history.
type WalletHistoryReq struct {
	CoinSymbol string  `json:"coinSymbol"`
	Account    string  `json:"account" doc:"otc, futures, margin_cross, margin_isolated or spot"`
	Type       string  `json:"type" doc:"otc, futures or margin"`
	StartTime  FlexInt `json:"startTime" doc:"Unix ms; at most 180 days back"`
	EndTime    FlexInt `json:"endTime" doc:"Unix ms; default now"`
	Page       FlexInt `json:"page" doc:"1-based"`
	PageSize   FlexInt `json:"pageSize" doc:"1-100, default 10"`
}

// Validate bounds the fields.
func (r *WalletHistoryReq) Validate() error {
	for name, v := range map[string]string{"coinSymbol": r.CoinSymbol, "account": r.Account, "type": r.Type} {
		if err := walletShort(name, v, 32); err != nil {
			return err
		}
	}
	if err := checkPaging(r.Page, r.PageSize, wallet.MaxPageSize); err != nil {
		return err
	}
	if r.StartTime.Set && r.StartTime.V < 0 || r.EndTime.Set && r.EndTime.V < 0 {
		return apperr.Param("startTime/endTime: Unix ms")
	}
	if r.StartTime.V > 1e14 || r.EndTime.V > 1e14 {
		return apperr.Param("startTime/endTime: Unix ms")
	}
	return nil
}

func (r *WalletHistoryReq) filter(typ string) wallet.HistoryFilter {
	f := wallet.HistoryFilter{Coin: r.CoinSymbol, Account: r.Account, Type: r.Type, Page: int(r.Page.V), PageSize: int(r.PageSize.V)}
	if typ != "" {
		f.Type = typ
	}
	if r.StartTime.Set && r.StartTime.V > 0 {
		f.Begin = time.UnixMilli(r.StartTime.V)
	}
	if r.EndTime.Set && r.EndTime.V > 0 {
		f.End = time.UnixMilli(r.EndTime.V)
	}
	return f
}

// WalletCodesFields are the verification codes of a call.
type WalletCodesFields struct {
	SmsValidCode FlexString `json:"smsValidCode" doc:"SMS code, required when isOpenMobileCheck is 1"`
	SmsAuthCode  FlexString `json:"smsAuthCode" doc:"alias of smsValidCode"`
	GoogleCode   FlexString `json:"googleCode" doc:"required when googleStatus is 1"`
}

func (f WalletCodesFields) codes() wallet.Codes {
	sms := f.SmsValidCode.String()
	if sms == "" {
		sms = f.SmsAuthCode.String()
	}
	return wallet.Codes{SMS: sms, Google: f.GoogleCode.String()}
}

func (f WalletCodesFields) check() error {
	for name, v := range map[string]FlexString{"smsValidCode": f.SmsValidCode, "smsAuthCode": f.SmsAuthCode, "googleCode": f.GoogleCode} {
		if err := codeField(name, v); err != nil {
			return err
		}
	}
	return nil
}

// WalletAddAddressReq is add_withdraw_address.
type WalletAddAddressReq struct {
	WalletCodesFields
	Address    string     `json:"address" v:"required" doc:"the address; a memo may follow after an underscore (address_memo)"`
	CoinSymbol string     `json:"coinSymbol" v:"required"`
	Label      string     `json:"label" v:"required" doc:"1-30 characters"`
	TrustType  FlexString `json:"trustType" doc:"the chain name (alias of chain)"`
	Chain      string     `json:"chain" doc:"the chain name, e.g. ERC20; the Bank chain is not allowed"`
	Memo       string     `json:"memo" doc:"optional memo (tag) on XRP and TON"`
	Verify     FlexInt    `json:"verify" doc:"optional: 1 turns the verify-address switch on, 0 off"`
}

// Validate bounds the fields.
func (r *WalletAddAddressReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	for name, v := range map[string]string{"address": r.Address, "memo": r.Memo, "label": r.Label} {
		if err := walletShort(name, v, 256); err != nil {
			return err
		}
	}
	if err := walletShort("chain", r.Chain+string(r.TrustType), 40); err != nil {
		return err
	}
	if r.Verify.Set && r.Verify.V != 0 && r.Verify.V != 1 {
		return apperr.Param("verify: 0 or 1")
	}
	return walletShort("coinSymbol", r.CoinSymbol, 20)
}

// WalletAddressListReq lists saved addresses.
type WalletAddressListReq struct {
	CoinSymbol string `json:"coinSymbol" doc:"optional coin filter"`
}

// Validate bounds the field.
func (r *WalletAddressListReq) Validate() error { return walletShort("coinSymbol", r.CoinSymbol, 20) }

// WalletIDReq names one entry by id.
type WalletIDReq struct {
	ID FlexString `json:"id" v:"required"`
}

// Validate bounds the field.
func (r *WalletIDReq) Validate() error { return walletShort("id", string(r.ID), 64) }

// WalletAddressList is the address list.
type WalletAddressList struct {
	List []wallet.SavedAddress `json:"list"`
}

// WalletVerifyAddressReq sets the verify-address switch.
type WalletVerifyAddressReq struct {
	WalletCodesFields
	Open FlexInt `json:"open" v:"required" doc:"1 on (withdraw only to saved addresses), 0 off"`
}

// Validate checks the flag.
func (r *WalletVerifyAddressReq) Validate() error {
	if r.Open.V != 0 && r.Open.V != 1 {
		return apperr.Param("open: 0 or 1")
	}
	return r.check()
}

// WalletBankAddReq is fiat_user_bank_add.
type WalletBankAddReq struct {
	Account     FlexString `json:"account" doc:"IBAN: 18 digits (MN is prepended) or MN and 18 digits"`
	Payment     FlexString `json:"payment" v:"required" doc:"the bank: payment value or id from the payment list"`
	SmsAuthCode FlexString `json:"smsAuthCode" doc:"SMS code of operationType 28 or 6, required when isOpenMobileCheck is 1"`
	GoogleCode  FlexString `json:"googleCode" doc:"required when googleStatus is 1"`
	UserName    string     `json:"userName" doc:"ignored: the holder is always the user's own name"`
}

// Validate bounds the fields.
func (r *WalletBankAddReq) Validate() error {
	if len(r.Account) > 64 {
		return apperr.New(apperr.CodeWalletIBANFormat)
	}
	if err := walletShort("payment", string(r.Payment), 32); err != nil {
		return err
	}
	if err := walletShort("userName", r.UserName, 256); err != nil {
		return err
	}
	if err := codeField("smsAuthCode", r.SmsAuthCode); err != nil {
		return err
	}
	return codeField("googleCode", r.GoogleCode)
}

// WalletBankList is the bank account list.
type WalletBankList []wallet.BankAccount

// WalletPaymentList is the payment list.
type WalletPaymentList struct {
	AllPaymentList []wallet.Bank `json:"allPaymentList"`
}

// WalletCapitalReq is /v4/capital_password/reset.
type WalletCapitalReq struct {
	NewCapitalPwd     string     `json:"newCapitalPwd" v:"required" doc:"8-32 characters with letters and digits, not the login password"`
	ConfirmCapitalPwd string     `json:"confirmCapitalPwd" doc:"optional; must equal newCapitalPwd"`
	SmsAuthCode       FlexString `json:"smsAuthCode" doc:"SMS code of operationType 6 (required when a phone is bound)"`
	EmailCode         FlexString `json:"emailCode" doc:"e-mail code of operationType 6 (accounts without a phone)"`
	GoogleCode        FlexString `json:"googleCode" doc:"required when googleStatus is 1"`
}

// Validate bounds the fields.
func (r *WalletCapitalReq) Validate() error {
	if len(r.NewCapitalPwd) > 256 || len(r.ConfirmCapitalPwd) > 256 {
		return apperr.New(apperr.CodeWalletTradePasswordRule)
	}
	for name, v := range map[string]FlexString{"smsAuthCode": r.SmsAuthCode, "emailCode": r.EmailCode, "googleCode": r.GoogleCode} {
		if err := codeField(name, v); err != nil {
			return err
		}
	}
	return nil
}

// WalletFeeCoinReq is update_fee_coin_open.
type WalletFeeCoinReq struct {
	UseFeeCoinOpen FlexInt `json:"useFeeCoinOpen" v:"required" doc:"1 pay trading fees with the platform coin, 0 not"`
}

// Validate checks the flag.
func (r *WalletFeeCoinReq) Validate() error {
	if r.UseFeeCoinOpen.V != 0 && r.UseFeeCoinOpen.V != 1 {
		return apperr.Param("useFeeCoinOpen: 0 or 1")
	}
	return nil
}

// WalletSettings are the user's wallet switches.
type WalletSettings struct {
	VerifyAddress  int `json:"verifyAddress" doc:"1 when withdrawals go only to saved addresses"`
	UseFeeCoinOpen int `json:"useFeeCoinOpen"`
	wallet.CapitalStatus
}

// WalletRates is /common/rateV2: the tables and the currencies.
type WalletRates struct {
	Rate       map[string]wallet.RateTable `json:"rate" doc:"per locale: price of each coin in USD (en_US) or MNT (mn_MN), lang_logo"`
	Currencies []wallet.Currency           `json:"currencies"`
}

func walletB2I(b bool) int {
	if b {
		return 1
	}
	return 0
}

// NewWalletRouter serves the wallet's accounts side. opts.Sessions must
// resolve sessions (httpapi.AuthSessions of the profile service).
func NewWalletRouter(svc *wallet.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "wallet"
	}
	r := NewRouter(opts)
	pub := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Public} }
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private} }
	w := func(op string, more ...string) []string {
		return append([]string{"/fe-ex-api/wallet/" + op}, more...)
	}
	uid := func(c *Call) string { return c.Principal.UserID }

	// Rates and coin lists (public).
	walletHandle(r, w("rateData", "/fe-ex-api/common/rate"), pub("Rate tables per locale (en_US: USD, mn_MN: MNT) with lang_logo"),
		func(c *Call, _ *Empty) (map[string]wallet.RateTable, error) { return svc.Rates(c.Ctx) })
	walletHandle(r, w("rateV2", "/fe-ex-api/common/rateV2"), pub("Rate tables per locale and the valuation currencies"),
		func(c *Call, _ *Empty) (*WalletRates, error) {
			t, err := svc.Rates(c.Ctx)
			if err != nil {
				return nil, err
			}
			return &WalletRates{Rate: t, Currencies: wallet.Currencies()}, nil
		})
	walletHandle(r, w("getFaitCoinList", "/fe-ex-api/common/getFaitCoinList"), pub("Valuation currencies (currency picker: text, id)"),
		func(c *Call, _ *Empty) ([]wallet.Currency, error) { return wallet.Currencies(), nil })
	walletHandle(r, w("get_margin_coin_list"), pub("Transfer modal: cross (mode 1) or isolated (mode 2) coin lists"),
		func(c *Call, req *WalletMarginListReq) (*wallet.MarginCoinList, error) {
			l, err := svc.MarginCoins(int(req.Mode.V))
			return &l, err
		})
	walletHandle(r, w("payment_list", "/fe-ex-api/fiat/payment_list"), pub("Banks a user can add an account of (data.allPaymentList)"),
		func(c *Call, _ *Empty) (*WalletPaymentList, error) {
			return &WalletPaymentList{AllPaymentList: wallet.Banks()}, nil
		})

	// Balances.
	walletHandle(r, w("get_overview_balance"), priv("Overview: each account valued in coinSymbol (BTC) and the chosen currency"),
		func(c *Call, req *WalletOverviewReq) (*wallet.OverviewBalance, error) {
			o, err := svc.Overview(c.Ctx, uid(c), req.CoinSymbol, walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("get_fiat_balance"), priv("Spot (fiat and crypto) balances per coin with BTC valuation and yesterday's profit"),
		func(c *Call, req *WalletCurrencyReq) (*wallet.FiatBalance, error) {
			o, err := svc.FiatBalances(c.Ctx, uid(c), walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("account_balance", "/fe-ex-api/finance/v5/account_balance"), priv("Spot coin rows with coin config"),
		func(c *Call, req *WalletCurrencyReq) (*wallet.AccountBalance, error) {
			o, err := svc.SpotBalances(c.Ctx, uid(c), walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("get_margin_cross_balance"), priv("Cross margin account per coin and summary"),
		func(c *Call, req *WalletCurrencyReq) (*wallet.CrossBalance, error) {
			o, err := svc.CrossBalances(c.Ctx, uid(c), walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("get_margin_isolated_balance"), priv("Isolated margin accounts per pair (base and quote)"),
		func(c *Call, req *WalletCurrencyReq) (*wallet.IsolatedBalance, error) {
			o, err := svc.IsolatedBalances(c.Ctx, uid(c), walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("otc_account_list", "/fe-ex-api/finance/otc_account_list", "/fe-ex-api/finance/v4/otc_account_list"),
		priv("OTC account per coin (2 decimals) with the spot available (exchangeNormal)"),
		func(c *Call, req *WalletCurrencyReq) (*wallet.OTCAccount, error) {
			o, err := svc.OTCBalances(c.Ctx, uid(c), walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("get_futures_balance"), priv("Futures account list (8 decimals)"),
		func(c *Call, req *WalletFuturesBalanceReq) (*wallet.FuturesBalance, error) {
			o, err := svc.FuturesBalances(c.Ctx, uid(c), req.OnlyAccount.V == 1, walletCurrency(c, req.Currency))
			return &o, err
		})
	walletHandle(r, w("get_futures_balance_statistics"), priv("Futures statistics over 7 days back to 1 day back"),
		func(c *Call, req *WalletFuturesStatsReq) (*wallet.FuturesStats, error) {
			o, err := svc.FuturesStatistics(c.Ctx, uid(c), req.StartDate.String(), req.EndDate.String(), req.CoinSymbol)
			return &o, err
		})
	walletHandle(r, w("get_earn_balance"), priv("Earn account per coin"),
		func(c *Call, req *WalletCurrencyReq) (*wallet.EarnBalance, error) {
			o, err := svc.EarnBalances(c.Ctx, uid(c), walletCurrency(c, req.Currency))
			return &o, err
		})

	// Transfers.
	transfer := func(c *Call, in wallet.TransferInput) (*wallet.TransferRecord, error) {
		rec, err := svc.Transfer(c.Ctx, uid(c), in)
		if err != nil {
			return nil, err
		}
		return &rec, nil
	}
	walletHandle(r, w("otc_transfer", "/fe-ex-api/finance/otc_transfer"), priv("Transfer between the spot account (1) and the OTC account (2)"),
		func(c *Call, req *WalletOTCTransferReq) (*wallet.TransferRecord, error) {
			kind := func(v int64) ledger.Kind {
				if v == 2 {
					return ledger.OTC
				}
				return ledger.Spot
			}
			return transfer(c, wallet.TransferInput{From: kind(req.FromAccount.V), To: kind(req.ToAccount.V),
				Coin: req.CoinSymbol, Amount: req.Amount.String(), RequestID: req.requestID()})
		})
	walletHandle(r, w("futures_to_contract"), priv("Transfer from the spot account to the futures account (amount truncated to 3 decimals)"),
		func(c *Call, req *WalletFuturesTransferReq) (*wallet.TransferRecord, error) {
			return transfer(c, wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: req.CoinSymbol,
				Amount: req.Amount.String(), RequestID: req.requestID()})
		})
	walletHandle(r, w("futures_to_account"), priv("Transfer from the futures account to the spot account (amount truncated to 3 decimals)"),
		func(c *Call, req *WalletFuturesTransferReq) (*wallet.TransferRecord, error) {
			return transfer(c, wallet.TransferInput{From: ledger.Futures, To: ledger.Spot, Coin: req.CoinSymbol,
				Amount: req.Amount.String(), RequestID: req.requestID()})
		})
	walletHandle(r, w("margin_transfer"), priv("Margin transfer: 1 isolated in, 2 isolated out, 3 cross in, 4 cross out"),
		func(c *Call, req *WalletMarginTransferReq) (*wallet.TransferRecord, error) {
			in := wallet.TransferInput{Coin: req.CoinSymbol, Amount: req.Amount.String(), RequestID: req.requestID(), Pair: req.Symbol}
			switch req.TransferType.V {
			case 1:
				in.From, in.To = ledger.Spot, ledger.MarginIsolated
			case 2:
				in.From, in.To = ledger.MarginIsolated, ledger.Spot
			case 3:
				in.From, in.To = ledger.Spot, ledger.MarginCross
			default:
				in.From, in.To = ledger.MarginCross, ledger.Spot
			}
			return transfer(c, in)
		})
	walletHandle(r, w("get_margin_cross_isolated"), priv("Transfer modal: margin balance info (type 1 cross coin, 0 isolated pair)"),
		func(c *Call, req *WalletMarginInfoReq) (*wallet.MarginInfo, error) {
			o, err := svc.MarginBalanceInfo(c.Ctx, uid(c), int(req.Type.V), req.Symbol)
			return &o, err
		})
	walletHandle(r, w("get_transfer_coin_list"), priv("Transfer modal: coins of an account with spot and account availability and precision"),
		func(c *Call, req *WalletTransferCoinsReq) (*wallet.TransferCoinList, error) {
			k, ok := wallet.ParseAccount(req.Account)
			if !ok {
				return nil, apperr.New(apperr.CodeWalletTransferAccount)
			}
			o, err := svc.TransferCoins(c.Ctx, uid(c), k, req.Symbol)
			return &o, err
		})
	walletHandle(r, w("otc_transfer_list", "/fe-ex-api/record/otc_transfer_list"), priv("OTC transfer history, newest first, last 180 days"),
		func(c *Call, req *WalletHistoryReq) (*wallet.TransferPage, error) {
			p, err := svc.Transfers(c.Ctx, uid(c), req.filter(wallet.TransferOTC))
			return &p, err
		})
	walletHandle(r, w("transfer_list"), priv("Transfer history of every kind, filtered, newest first, last 180 days"),
		func(c *Call, req *WalletHistoryReq) (*wallet.TransferPage, error) {
			p, err := svc.Transfers(c.Ctx, uid(c), req.filter(""))
			return &p, err
		})

	// Address book and the verify-address switch.
	walletHandle(r, w("add_withdraw_address"), priv("Save a withdrawal address (SMS code of operationType 11 and Google code per the user's flags)"),
		func(c *Call, req *WalletAddAddressReq) (*wallet.SavedAddress, error) {
			ch := req.Chain
			if ch == "" {
				ch = req.TrustType.String()
			}
			in := wallet.AddAddressInput{Coin: req.CoinSymbol, Chain: ch, Address: req.Address, Memo: req.Memo,
				Label: req.Label, Codes: req.codes()}
			if req.Verify.Set {
				v := req.Verify.V == 1
				in.Verify = &v
			}
			a, err := svc.AddAddress(c.Ctx, uid(c), in)
			if err != nil {
				return nil, err
			}
			return &a, nil
		})
	walletHandle(r, w("withdraw_address_list"), priv("Saved withdrawal addresses, newest first"),
		func(c *Call, req *WalletAddressListReq) (*WalletAddressList, error) {
			l, err := svc.Addresses(c.Ctx, uid(c), req.CoinSymbol)
			if err != nil {
				return nil, err
			}
			return &WalletAddressList{List: l}, nil
		})
	walletHandle(r, w("delete_withdraw_address"), priv("Delete a saved withdrawal address"),
		func(c *Call, req *WalletIDReq) (Empty, error) {
			return Empty{}, svc.DeleteAddress(c.Ctx, uid(c), req.ID.String())
		})
	walletHandle(r, w("get_verify_address"), priv("The verify-address switch"),
		func(c *Call, _ *Empty) (*wallet.VerifyAddressStatus, error) {
			on, err := svc.VerifyAddressOn(c.Ctx, uid(c))
			if err != nil {
				return nil, err
			}
			return &wallet.VerifyAddressStatus{Open: walletB2I(on)}, nil
		})
	walletHandle(r, w("set_verify_address"), priv("Turn the verify-address switch on or off (codes per the user's flags)"),
		func(c *Call, req *WalletVerifyAddressReq) (Empty, error) {
			return Empty{}, svc.SetVerifyAddress(c.Ctx, uid(c), req.Open.V == 1, req.codes())
		})

	// Bank accounts.
	walletHandle(r, w("fiat_user_bank_list", "/fe-ex-api/fiat/fiat_user_bank_list"), priv("The user's bank accounts (id, title, account, userName, icon)"),
		func(c *Call, _ *Empty) (WalletBankList, error) {
			l, err := svc.BankAccounts(c.Ctx, uid(c))
			return WalletBankList(l), err
		})
	walletHandle(r, w("fiat_user_bank_add", "/fe-ex-api/fiat/fiat_user_bank_add"), priv("Add a bank account (IBAN MN + 18 digits; codes per the user's flags)"),
		func(c *Call, req *WalletBankAddReq) (*wallet.BankAccount, error) {
			b, err := svc.AddBankAccount(c.Ctx, uid(c), wallet.AddBankInput{Account: req.Account.String(), Payment: req.Payment.String(),
				Codes: wallet.Codes{SMS: req.SmsAuthCode.String(), Google: req.GoogleCode.String()}})
			if err != nil {
				return nil, err
			}
			return &b, nil
		})
	walletHandle(r, w("fiat_user_bank_delete", "/fe-ex-api/fiat/fiat_user_bank_delete"), priv("Delete a bank account"),
		func(c *Call, req *WalletIDReq) (Empty, error) {
			return Empty{}, svc.DeleteBankAccount(c.Ctx, uid(c), req.ID.String())
		})

	// Trade password and settings.
	walletHandle(r, w("capital_password_reset", "/fe-ex-api/v4/capital_password/reset"),
		priv("Set the trade password (SMS code of operationType 6; Google when on); withdrawals blocked 24 h"),
		func(c *Call, req *WalletCapitalReq) (*wallet.CapitalStatus, error) {
			st, err := svc.SetCapitalPassword(c.Ctx, uid(c), wallet.CapitalPasswordInput{
				NewPassword: req.NewCapitalPwd, Confirm: req.ConfirmCapitalPwd,
				Codes: wallet.Codes{SMS: req.SmsAuthCode.String(), Email: req.EmailCode.String(), Google: req.GoogleCode.String()},
			})
			if err != nil {
				return nil, err
			}
			return &st, nil
		})
	walletHandle(r, w("capital_password_status"), priv("Whether the trade password is set and the withdrawal ban"),
		func(c *Call, _ *Empty) (*wallet.CapitalStatus, error) {
			st, err := svc.CapitalStatus(c.Ctx, uid(c))
			return &st, err
		})
	walletHandle(r, w("update_fee_coin_open", "/fe-ex-api/user/update_fee_coin_open"), priv("Pay trading fees with the platform coin: 1 on, 0 off"),
		func(c *Call, req *WalletFeeCoinReq) (Empty, error) {
			return Empty{}, svc.SetFeeCoinOpen(c.Ctx, uid(c), req.UseFeeCoinOpen.V == 1)
		})
	walletHandle(r, w("get_wallet_settings"), priv("The user's wallet switches and trade password state"),
		func(c *Call, _ *Empty) (*WalletSettings, error) {
			on, err := svc.VerifyAddressOn(c.Ctx, uid(c))
			if err != nil {
				return nil, err
			}
			fee, err := svc.FeeCoinOpen(c.Ctx, uid(c))
			if err != nil {
				return nil, err
			}
			st, err := svc.CapitalStatus(c.Ctx, uid(c))
			if err != nil {
				return nil, err
			}
			return &WalletSettings{VerifyAddress: walletB2I(on), UseFeeCoinOpen: walletB2I(fee), CapitalStatus: st}, nil
		})
	return r
}
