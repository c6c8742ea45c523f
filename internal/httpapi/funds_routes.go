package httpapi

import (
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/deposit"
	"tenger/internal/withdraw"
)

// Funds routes: deposit addresses, deposit and withdraw modals, withdrawals
// (chain and bank) and their history. Every named operation is served at
// POST /fe-ex-api/wallet/<operation> and at the spec's own path where §7
// gives one (/fe-ex-api/cost/Getcost, /bank/v2/withdraw-req).

// fundsHandle registers one handler at several paths.
func fundsHandle[Req any, Resp any](r *Router, paths []string, opts RouteOpts, fn func(c *Call, req *Req) (Resp, error)) {
	for _, p := range paths {
		Handle(r, p, opts, fn)
	}
}

func fundsShort(name, v string, n int) error {
	if len(v) > n {
		return apperr.Param(name + ": too long")
	}
	return nil
}

// FundsSymbolReq names a coin and optionally its chain.
type FundsSymbolReq struct {
	Symbol     string `json:"symbol" doc:"coin code (BTC, USDT, MNT, MONT) or coin and chain joined (USDT_TRC20)"`
	Coin       string `json:"coin" doc:"alias of symbol"`
	CoinSymbol string `json:"coinSymbol" doc:"alias of symbol"`
	Chain      string `json:"chain" doc:"chain name (ERC20, TRC20, BEP20, BTC, ETH, TRX, XRP, TON, Bank); default the coin's first open chain"`
	TrustType  string `json:"trustType" doc:"alias of chain"`
}

func (r *FundsSymbolReq) symbol() string {
	for _, s := range []string{r.Symbol, r.Coin, r.CoinSymbol} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func (r *FundsSymbolReq) chain() string {
	if strings.TrimSpace(r.Chain) != "" {
		return r.Chain
	}
	return r.TrustType
}

// Validate requires a coin and bounds the fields.
func (r *FundsSymbolReq) Validate() error {
	if r.symbol() == "" {
		return apperr.Param("symbol: required")
	}
	for _, f := range []struct{ n, v string }{{"symbol", r.Symbol}, {"coin", r.Coin}, {"coinSymbol", r.CoinSymbol}, {"chain", r.Chain}, {"trustType", r.TrustType}} {
		if err := fundsShort(f.n, f.v, 40); err != nil {
			return err
		}
	}
	return nil
}

// FundsValidateAddressReq is validate_withdraw_address.
type FundsValidateAddressReq struct {
	CoinSymbol string `json:"coinSymbol" v:"required"`
	Address    string `json:"address" v:"required" doc:"address, or address_memo on memo chains; an IBAN for the Bank chain"`
	Chain      string `json:"chain"`
	TrustType  string `json:"trustType" doc:"alias of chain"`
}

// Validate bounds the fields.
func (r *FundsValidateAddressReq) Validate() error {
	if err := fundsShort("coinSymbol", r.CoinSymbol, 40); err != nil {
		return err
	}
	if err := fundsShort("chain", r.Chain+r.TrustType, 40); err != nil {
		return err
	}
	return fundsShort("address", r.Address, 300)
}

// FundsCodes are the verification codes of a withdrawal.
type FundsCodes struct {
	EmailCode    FlexString `json:"emailCode" doc:"e-mail code of operationType 17; required when the account has an e-mail"`
	SmsValidCode FlexString `json:"smsValidCode" doc:"SMS code of operationType 10; required when isOpenMobileCheck is 1"`
	GoogleCode   FlexString `json:"googleCode" doc:"Google authenticator code; required when googleStatus is 1"`
}

func (f FundsCodes) codes() withdraw.Codes {
	return withdraw.Codes{Email: f.EmailCode.String(), SMS: f.SmsValidCode.String(), Google: f.GoogleCode.String()}
}

func (f FundsCodes) check() error {
	return codeFields(namedCode{"emailCode", f.EmailCode}, namedCode{"smsValidCode", f.SmsValidCode}, namedCode{"googleCode", f.GoogleCode})
}

// FundsConfirmReq is confirm_withdraw.
type FundsConfirmReq struct {
	FundsCodes
	Address   string     `json:"address" v:"required" doc:"destination; on memo chains address_memo or give memo"`
	Memo      string     `json:"memo"`
	AddressID FlexString `json:"addressId" doc:"address-book id when chosen from the list"`
	Fee       FlexString `json:"fee" doc:"the fee shown (defaultFee); must equal the current fee"`
	Amount    FlexString `json:"amount" v:"required" doc:"amount debited, fee included; amount - fee is sent"`
	Symbol    string     `json:"symbol" v:"required" doc:"coin"`
	TrustType string     `json:"trustType" doc:"chain; default the coin's first open chain"`
	Chain     string     `json:"chain" doc:"alias of trustType"`
	RequestID string     `json:"requestId" doc:"idempotency key: a retried submit with the same key holds nothing twice"`
}

// Validate bounds the fields.
func (r *FundsConfirmReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	for _, f := range []struct {
		n string
		v string
		m int
	}{{"address", r.Address, 300}, {"memo", r.Memo, 200}, {"addressId", string(r.AddressID), 64}, {"fee", string(r.Fee), 40},
		{"amount", string(r.Amount), 40}, {"symbol", r.Symbol, 40}, {"trustType", r.TrustType, 40}, {"chain", r.Chain, 40},
		{"requestId", r.RequestID, 128}} {
		if err := fundsShort(f.n, f.v, f.m); err != nil {
			return err
		}
	}
	return nil
}

// FundsBankWithdrawReq is the bank withdrawal (/bank/v2/withdraw-req).
type FundsBankWithdrawReq struct {
	FundsCodes
	UserID        FlexString `json:"userId" v:"required" doc:"must be the signed-in user's id"`
	Amount        FlexString `json:"amount" v:"required" doc:"MNT debited, fee included"`
	BankAccName   string     `json:"bankAccName"`
	BankAccNo     FlexString `json:"bankAccNo" doc:"IBAN of one of the user's saved bank accounts (MN + 18 digits, or the 18 digits)"`
	BankName      string     `json:"bankName"`
	BankAccountID FlexString `json:"bankAccountId" doc:"saved bank account id (instead of bankAccNo)"`
	Code          string     `json:"code" doc:"the withdraw code from the page URL (MONT)"`
	RequestID     string     `json:"requestId"`
}

// Validate bounds the fields.
func (r *FundsBankWithdrawReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	if r.BankAccNo == "" && r.BankAccountID == "" {
		return apperr.Param("bankAccNo: required")
	}
	for _, f := range []struct {
		n, v string
		m    int
	}{{"userId", string(r.UserID), 64}, {"amount", string(r.Amount), 40}, {"bankAccName", r.BankAccName, 128},
		{"bankAccNo", string(r.BankAccNo), 40}, {"bankName", r.BankName, 128}, {"bankAccountId", string(r.BankAccountID), 64},
		{"code", r.Code, 20}, {"requestId", r.RequestID, 128}} {
		if err := fundsShort(f.n, f.v, f.m); err != nil {
			return err
		}
	}
	return nil
}

// FundsHistoryReq filters deposit or withdrawal history.
type FundsHistoryReq struct {
	CoinSymbol string  `json:"coinSymbol" doc:"coin filter"`
	Status     string  `json:"status" doc:"status filter (deposits: confirming, credited, below_min; withdrawals: PENDING, PROCESSING, SUCCESS, FAILED)"`
	StartTime  FlexInt `json:"startTime" doc:"Unix ms; at most 180 days back"`
	EndTime    FlexInt `json:"endTime" doc:"Unix ms"`
	Page       FlexInt `json:"page" doc:"1-based"`
	PageSize   FlexInt `json:"pageSize" doc:"default 20, at most 100"`
}

// Validate bounds the fields.
func (r *FundsHistoryReq) Validate() error {
	if err := fundsShort("coinSymbol", r.CoinSymbol, 20); err != nil {
		return err
	}
	if err := fundsShort("status", r.Status, 20); err != nil {
		return err
	}
	if r.StartTime.V < 0 || r.EndTime.V < 0 {
		return apperr.Param("startTime and endTime must not be negative")
	}
	// The paging rule of every list: out-of-range pages are refused, not clamped.
	return checkPaging(r.Page, r.PageSize, 100)
}

func (r *FundsHistoryReq) filter() deposit.Filter {
	f := deposit.Filter{Coin: r.CoinSymbol, Status: r.Status, Page: int(r.Page.V), PageSize: int(r.PageSize.V)}
	if r.StartTime.V > 0 {
		f.From = time.UnixMilli(r.StartTime.V)
	}
	if r.EndTime.V > 0 {
		f.To = time.UnixMilli(r.EndTime.V)
	}
	return f
}

// FundsDepositPage is a page of deposit history.
type FundsDepositPage struct {
	List     []deposit.Record `json:"list"`
	Count    int              `json:"count"`
	Page     int              `json:"page"`
	PageSize int              `json:"pageSize"`
}

// FundsWithdrawPage is a page of withdrawal history.
type FundsWithdrawPage struct {
	List     []withdraw.Record `json:"list"`
	Count    int               `json:"count"`
	Page     int               `json:"page"`
	PageSize int               `json:"pageSize"`
}

// FundsAssetList is the modals' asset picker.
type FundsAssetList struct {
	List []deposit.AssetEntry `json:"list"`
}

// FundsSubmitResp is the answer of confirm_withdraw and the bank withdrawal.
type FundsSubmitResp struct {
	ID     string `json:"id" doc:"withdrawal id"`
	Status string `json:"status"`
	URL    string `json:"url" doc:"bank withdrawals: the bank confirmation page to redirect to"`
}

// NewFundsRouter serves deposits and withdrawals.
func NewFundsRouter(dep *deposit.Service, wd *withdraw.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "funds"
	}
	r := NewRouter(opts)
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "wallet"} }
	w := func(op string) string { return "/fe-ex-api/wallet/" + op }

	fundsHandle(r, []string{w("get_charge_address"), w("deposit_address")},
		priv("Deposit address of a coin and chain (addressLong/addressStr, memo, addressQRCode PNG data URL); for MNT the bank transfer block"),
		func(c *Call, req *FundsSymbolReq) (deposit.Address, error) {
			return dep.ChargeAddress(c.Ctx, c.Principal.UserID, req.symbol(), req.chain())
		})
	fundsHandle(r, []string{w("recharge_list"), w("deposit_coin_list")},
		priv("Deposit modal asset list: coins open for deposit with balances and chains (each with its minimum deposit, confirmations and expected arrival)"),
		func(c *Call, _ *Empty) (FundsAssetList, error) {
			l, err := dep.Assets(c.Ctx, c.Principal.UserID, deposit.DirDeposit)
			return FundsAssetList{List: l}, err
		})
	fundsHandle(r, []string{w("withdraw_coin_list")},
		priv("Withdraw modal asset list: coins open for withdrawal (MONT for the fiat) with balances and chains"),
		func(c *Call, _ *Empty) (FundsAssetList, error) {
			l, err := dep.Assets(c.Ctx, c.Principal.UserID, deposit.DirWithdraw)
			return FundsAssetList{List: l}, err
		})
	fundsHandle(r, []string{w("bank_deposit_info")},
		priv("Fixed bank transfer block of the deposit modal: bank, company account, recipient, transaction value (your user id)"),
		func(c *Call, _ *Empty) (deposit.BankBlock, error) {
			return dep.BankBlockFor(c.Principal.UserID), nil
		})
	fundsHandle(r, []string{w("get_cost"), "/fe-ex-api/cost/Getcost"},
		priv("Withdrawal cost info: fee, min/max, withdrawable, 24 h limit in USDT, saved addresses, required codes"),
		func(c *Call, req *FundsSymbolReq) (withdraw.Cost, error) {
			return wd.Cost(c.Ctx, c.Principal.UserID, req.symbol(), req.chain())
		})
	fundsHandle(r, []string{w("withdraw_settings")},
		priv("Withdraw modal settings: withdrawable, withdrawalLimit (USDT), min/max, defaultFee, addressList (bank accounts for MONT)"),
		func(c *Call, req *FundsSymbolReq) (withdraw.Settings, error) {
			return wd.Settings(c.Ctx, c.Principal.UserID, req.symbol(), req.chain())
		})
	fundsHandle(r, []string{w("validate_withdraw_address")},
		priv("Check a withdrawal address in the chain's real format (code 0 means valid)"),
		func(c *Call, req *FundsValidateAddressReq) (Empty, error) {
			ch := req.Chain
			if ch == "" {
				ch = req.TrustType
			}
			return Empty{}, wd.ValidateAddress(c.Ctx, c.Principal.UserID, req.CoinSymbol, ch, req.Address)
		})
	fundsHandle(r, []string{w("confirm_withdraw")},
		priv("Submit a chain withdrawal with the codes the account needs; holds the amount and starts the withdrawal workflow"),
		func(c *Call, req *FundsConfirmReq) (FundsSubmitResp, error) {
			ch := req.TrustType
			if ch == "" {
				ch = req.Chain
			}
			res, err := wd.Confirm(c.Ctx, c.Principal.UserID, withdraw.ConfirmInput{RequestID: req.RequestID, Symbol: req.Symbol,
				Chain: ch, Address: req.Address, Memo: req.Memo, AddressID: req.AddressID.String(), Amount: req.Amount.String(),
				Fee: req.Fee.String(), Codes: req.codes()})
			return FundsSubmitResp(res), err
		})
	fundsHandle(r, []string{w("bank_withdraw"), "/bank/v2/withdraw-req"},
		priv("Submit an MNT withdrawal to a saved bank account; answers the bank confirmation url to redirect to"),
		func(c *Call, req *FundsBankWithdrawReq) (FundsSubmitResp, error) {
			res, err := wd.ConfirmBank(c.Ctx, c.Principal.UserID, withdraw.BankInput{RequestID: req.RequestID,
				UserID: req.UserID.String(), Amount: req.Amount.String(), BankAccName: req.BankAccName,
				BankAccNo: req.BankAccNo.String(), BankName: req.BankName, BankAccountID: req.BankAccountID.String(),
				Code: req.Code, Codes: req.codes()})
			return FundsSubmitResp(res), err
		})
	fundsHandle(r, []string{w("deposit_history"), w("recharge_history")},
		priv("Deposit history (chain and bank) of the last 180 days with confirmations, txid, its explorer page and status"),
		func(c *Call, req *FundsHistoryReq) (FundsDepositPage, error) {
			f := req.filter()
			l, n, err := dep.History(c.Ctx, c.Principal.UserID, f)
			f = f.Normalize(c.Now)
			return FundsDepositPage{List: l, Count: n, Page: f.Page, PageSize: f.PageSize}, err
		})
	fundsHandle(r, []string{w("withdraw_history")},
		priv("Withdrawal history (chain and bank) of the last 180 days with status and, once sent, txid and its explorer page"),
		func(c *Call, req *FundsHistoryReq) (FundsWithdrawPage, error) {
			f := req.filter()
			l, n, err := wd.History(c.Ctx, c.Principal.UserID, f)
			f = f.Normalize(c.Now)
			return FundsWithdrawPage{List: l, Count: n, Page: f.Page, PageSize: f.PageSize}, err
		})
	return r
}
