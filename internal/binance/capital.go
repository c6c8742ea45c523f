package binance

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/deposit"
	"tenger/internal/withdraw"
)

// Deposits are the deposit addresses and history (deposit.Service).
type Deposits interface {
	ChargeAddress(ctx context.Context, uid, symbol, chainName string) (deposit.Address, error)
	History(ctx context.Context, uid string, f deposit.Filter) ([]deposit.Record, int, error)
}

// Withdrawals are withdrawals an API key asks for and their history
// (withdraw.Service): the same checks, limits, workflow and records as the
// web's.
type Withdrawals interface {
	ConfirmByKey(ctx context.Context, uid, apiKey string, in withdraw.ConfirmInput) (withdraw.Result, error)
	History(ctx context.Context, uid string, f deposit.Filter) ([]withdraw.Record, int, error)
}

// addCapitalRoutes registers the wallet calls. Binance weighs the two
// withdrawal calls per account (UID weight 900 and 18000), not per IP;
// their IP weight here is 1, and the per-account limits are the wallet's
// own (daily limit, lock).
func (s *Server) addCapitalRoutes() {
	s.route(http.MethodPost, "/sapi/v1/capital/withdraw/apply", 1, SecUserData, s.withdrawApply).
		params("coin", "withdrawOrderId", "network", "address", "addressTag", "amount", "transactionFeeFlag", "name", "walletType")
	s.route(http.MethodGet, "/sapi/v1/capital/withdraw/history", 1, SecUserData, s.withdrawHistory).
		params("coin", "withdrawOrderId", "status", "offset", "limit", "idList", "startTime", "endTime")
	s.route(http.MethodGet, "/sapi/v1/capital/deposit/address", 10, SecUserData, s.depositAddress).
		params("coin", "network", "amount")
	s.route(http.MethodGet, "/sapi/v1/capital/deposit/hisrec", 1, SecUserData, s.depositHistory).
		params("includeSource", "coin", "status", "startTime", "endTime", "offset", "limit", "txId")
}

// withdrawApply is POST /sapi/v1/capital/withdraw/apply (the key's
// withdraw permission is checked by KeyAuth). amount is what leaves the
// account, the network fee included, as on the web.
func (s *Server) withdrawApply(c *Call) (any, error) {
	p := c.Params
	coin, _, err := p.String("coin", true)
	if err != nil {
		return nil, err
	}
	address, _, err := p.String("address", true)
	if err != nil {
		return nil, err
	}
	amount, _, err := p.Decimal("amount", true, 18)
	if err != nil {
		return nil, err
	}
	network, _, err := p.String("network", false)
	if err != nil {
		return nil, err
	}
	tag, _, err := p.String("addressTag", false)
	if err != nil {
		return nil, err
	}
	oid, oidSent, err := p.String("withdrawOrderId", false)
	if err != nil {
		return nil, err
	}
	if oidSent && len(oid) > 64 {
		return nil, ErrInvalidParam("withdrawOrderId")
	}
	if p.Has("transactionFeeFlag") {
		if v, _ := p.Raw("transactionFeeFlag"); v == "true" {
			return nil, errUnsupportedCombo() // no internal transfers between users here
		}
	}
	key := account(c)
	// withdrawOrderId is the client's idempotency key; without one every
	// request is a withdrawal of its own.
	req := "api:" + key.APIKey + ":" + oid
	if !oidSent {
		req = "api:" + randomClientOrderID()
	}
	res, err := s.opts.Withdrawals.ConfirmByKey(c.Ctx, key.UserID, key.APIKey, withdraw.ConfirmInput{RequestID: req,
		Symbol: coin, Chain: s.chainOf(coin, network), Address: address, Memo: tag, Amount: amount.String()})
	if err != nil {
		return nil, capitalError(err)
	}
	return struct {
		ID string `json:"id"`
	}{res.ID}, nil
}

// capitalError answers a wallet error with Binance's -4xxx style: the
// catalogue's English message under -1130 (invalid data) or -2010-like
// balance refusals, so clients see what to fix.
func capitalError(err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Entry.Code {
	case apperr.CodeInternal:
		return err
	case apperr.CodeInsufficientFunds:
		return badRequest(CodeNewOrderRejected, msgInsufficient)
	}
	return badRequest(CodeInvalidParameter, "%s", ae.Message("en_US"))
}

type depositAddress struct {
	Address string `json:"address"`
	Coin    string `json:"coin"`
	Tag     string `json:"tag"`
	URL     string `json:"url"`
}

// depositAddress is GET /sapi/v1/capital/deposit/address.
func (s *Server) depositAddress(c *Call) (any, error) {
	coin, _, err := c.Params.String("coin", true)
	if err != nil {
		return nil, err
	}
	network, _, err := c.Params.String("network", false)
	if err != nil {
		return nil, err
	}
	a, err := s.opts.Deposits.ChargeAddress(c.Ctx, account(c).UserID, coin, s.chainOf(coin, network))
	if err != nil {
		return nil, capitalError(err)
	}
	if a.Bank != nil {
		return nil, badRequest(CodeInvalidParameter, "%s deposits are bank transfers: see the deposit page", strings.ToUpper(coin))
	}
	return depositAddress{Address: a.AddressLong, Coin: strings.ToUpper(a.Coin), Tag: a.Memo}, nil
}

type depositRecord struct {
	ID            string `json:"id"`
	Amount        string `json:"amount"`
	Coin          string `json:"coin"`
	Network       string `json:"network"`
	Status        int    `json:"status"`
	Address       string `json:"address"`
	AddressTag    string `json:"addressTag"`
	TxID          string `json:"txId"`
	InsertTime    int64  `json:"insertTime"`
	CompleteTime  int64  `json:"completeTime,omitempty"`
	TransferType  int    `json:"transferType"`
	ConfirmTimes  string `json:"confirmTimes"`
	UnlockConfirm int64  `json:"unlockConfirm"`
	WalletType    int    `json:"walletType"`
}

// depositStatus is Binance's deposit status: 0 pending, 1 success, 7
// wrong deposit (not credited).
func depositStatus(s string) int {
	switch s {
	case "credited":
		return 1
	case "below_min", "review":
		return 7
	}
	return 0
}

// capitalFilter reads coin, startTime, endTime, offset and limit (at most
// 1000) of the histories.
func capitalFilter(c *Call) (deposit.Filter, int, int, error) {
	p := c.Params
	var f deposit.Filter
	if v, sent, err := p.String("coin", false); err != nil {
		return f, 0, 0, err
	} else if sent {
		f.Coin = strings.ToUpper(v)
	}
	if v, sent, err := p.Time("startTime"); err != nil {
		return f, 0, 0, err
	} else if sent {
		f.From = time.UnixMilli(v)
	}
	if v, sent, err := p.Time("endTime"); err != nil {
		return f, 0, 0, err
	} else if sent {
		f.To = time.UnixMilli(v)
	}
	offset, _, err := p.Long("offset", false)
	if err != nil || offset < 0 {
		return f, 0, 0, ErrInvalidParam("offset")
	}
	limit, err := p.Limit("limit", 1000, 1000)
	if err != nil {
		return f, 0, 0, err
	}
	f.PageSize = 100
	return f, int(offset), limit, nil
}

// pages reads a history's entries offset to offset+limit.
func pages[T any](f deposit.Filter, offset, limit int, read func(deposit.Filter) ([]T, int, error)) ([]T, error) {
	all, err := readPages(offset+limit, f.PageSize, func(page int) ([]T, int, error) {
		f.Page = page
		return read(f)
	})
	if err != nil {
		return nil, err
	}
	if offset >= len(all) {
		return nil, nil
	}
	all = all[offset:]
	if len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

// depositHistory is GET /sapi/v1/capital/deposit/hisrec, newest first.
func (s *Server) depositHistory(c *Call) (any, error) {
	f, offset, limit, err := capitalFilter(c)
	if err != nil {
		return nil, err
	}
	uid := account(c).UserID
	recs, err := pages(f, offset, limit, func(f deposit.Filter) ([]deposit.Record, int, error) {
		return s.opts.Deposits.History(c.Ctx, uid, f)
	})
	if err != nil {
		return nil, capitalError(err)
	}
	txid, _ := c.Params.Raw("txId")
	out := []depositRecord{}
	for _, r := range recs {
		if txid != "" && r.TxID != txid {
			continue
		}
		out = append(out, depositRecord{ID: r.ID, Amount: r.Amount.String(), Coin: strings.ToUpper(r.Coin), Network: NetworkID(r.Chain),
			Status: depositStatus(r.Status), Address: r.Address, AddressTag: r.Memo, TxID: r.TxID, InsertTime: r.Created,
			CompleteTime: r.Credited, ConfirmTimes: itoa(r.Confirmations) + "/" + itoa(r.Required), UnlockConfirm: r.Required})
	}
	return out, nil
}

type withdrawRecord struct {
	ID              string `json:"id"`
	Amount          string `json:"amount"`
	TransactionFee  string `json:"transactionFee"`
	Coin            string `json:"coin"`
	Status          int    `json:"status"`
	Address         string `json:"address"`
	AddressTag      string `json:"addressTag,omitempty"`
	TxID            string `json:"txId"`
	ApplyTime       string `json:"applyTime"`
	Network         string `json:"network"`
	TransferType    int    `json:"transferType"`
	WithdrawOrderID string `json:"withdrawOrderId,omitempty"`
	Info            string `json:"info"`
	ConfirmNo       int    `json:"confirmNo"`
	WalletType      int    `json:"walletType"`
	CompleteTime    string `json:"completeTime,omitempty"`
}

// withdrawStatus is Binance's withdrawal status: 4 processing, 6
// completed, 5 failure (2 awaiting approval for a pending one).
func withdrawStatus(s string) int {
	switch s {
	case withdraw.StatusPending:
		return 2
	case withdraw.StatusProcessing:
		return 4
	case withdraw.StatusSuccess:
		return 6
	case withdraw.StatusFailed:
		return 5
	}
	return 0
}

// withdrawHistory is GET /sapi/v1/capital/withdraw/history, newest first.
func (s *Server) withdrawHistory(c *Call) (any, error) {
	f, offset, limit, err := capitalFilter(c)
	if err != nil {
		return nil, err
	}
	uid := account(c).UserID
	recs, err := pages(f, offset, limit, func(f deposit.Filter) ([]withdraw.Record, int, error) {
		return s.opts.Withdrawals.History(c.Ctx, uid, f)
	})
	if err != nil {
		return nil, capitalError(err)
	}
	out := []withdrawRecord{}
	for _, r := range recs {
		if r.Kind != withdraw.KindChain {
			continue
		}
		w := withdrawRecord{ID: r.ID, Amount: r.Net.String(), TransactionFee: r.Fee.String(), Coin: strings.ToUpper(r.Coin),
			Status: withdrawStatus(r.Status), Address: r.Address, AddressTag: r.Memo, TxID: r.TxID,
			ApplyTime: time.UnixMilli(r.Created).UTC().Format(time.DateTime), Network: NetworkID(r.Chain), Info: r.Reason}
		if r.Status == withdraw.StatusSuccess {
			w.CompleteTime = time.UnixMilli(r.Updated).UTC().Format(time.DateTime)
		}
		out = append(out, w)
	}
	return out, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
