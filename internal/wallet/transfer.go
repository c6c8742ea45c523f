package wallet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/store"
)

// Transfer types (the record's type and the history filter).
const (
	TransferOTC     = "otc"
	TransferFutures = "futures"
	TransferMargin  = "margin"
)

// MaxRequestIDLen bounds a client's request id.
const MaxRequestIDLen = 64

// TransferInput is one transfer between the spot account and another
// account of the same user.
type TransferInput struct {
	From, To ledger.Kind
	// Pair is the isolated margin pair (BTCUSDT) when one side is MarginIsolated.
	Pair   string
	Coin   string
	Amount string
	// RequestID is the client's idempotency key (requestId / clientOid):
	// retrying with the same id applies the transfer once. Empty means a
	// fresh transfer.
	RequestID string
}

// TransferRecord is one transfer as history shows it.
type TransferRecord struct {
	ID         string `json:"id"`
	Type       string `json:"type" doc:"otc, futures or margin"`
	CoinSymbol string `json:"coinSymbol"`
	Amount     string `json:"amount"`
	From       string `json:"fromAccount" doc:"spot, otc, futures, margin_cross or margin_isolated"`
	To         string `json:"toAccount"`
	FromName   string `json:"fromAccountName"`
	ToName     string `json:"toAccountName"`
	Symbol     string `json:"symbol" doc:"isolated margin pair, empty otherwise"`
	Status     string `json:"status" doc:"success: a transfer applies at once, both legs or neither"`
	Ctime      int64  `json:"ctime" doc:"Unix ms"`
	// Replayed is true when the request id had been applied before and
	// nothing changed now.
	Replayed bool `json:"replayed"`
}

// transferSeq orders the records of one millisecond within a process
// (seeded from the wall clock so it keeps rising across restarts).
var transferSeq = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(time.Now().UnixNano())
	return &n
}()

func transferKey(uid, id string) store.Key { return store.Key{PK: walletPK(uid), SK: "XFER#" + id} }

func transferLogPK(uid string) string { return "XFERLOG#" + uid }

// AccountName names an account kind for people.
func AccountName(k ledger.Kind, pair string) string {
	switch k {
	case ledger.Spot:
		return "Spot account"
	case ledger.OTC:
		return "OTC account"
	case ledger.Futures:
		return "Futures account"
	case ledger.MarginCross:
		return "Cross margin"
	case ledger.MarginIsolated:
		return "Isolated margin " + pair
	case ledger.Earn:
		return "Earn account"
	}
	return string(k)
}

func validRequestID(id string) bool {
	if len(id) > MaxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// amountError maps the coins package's amount errors to catalogue codes.
func amountError(err error, precision int32) error {
	switch {
	case errors.Is(err, coins.ErrAmountEmpty):
		return apperr.Param("amount: required")
	case errors.Is(err, coins.ErrAmountTooLong):
		return apperr.New(apperr.CodeWalletAmountTooLong)
	case errors.Is(err, coins.ErrAmountPrecision):
		return apperr.New(apperr.CodeWalletAmountPrecision, precision)
	case errors.Is(err, coins.ErrAmountZero):
		return apperr.New(apperr.CodeWalletAmountZero)
	}
	return apperr.New(apperr.CodeWalletAmountFormat)
}

// parseTransferAmount applies spec §5: digits with at most one decimal
// point, above 0, at most the coin's precision; futures amounts are
// truncated to 3 decimals instead of refused (spec §5, §9).
func parseTransferAmount(raw string, c coins.Coin, futures bool) (decimal.Decimal, error) {
	raw = strings.TrimSpace(raw)
	if futures {
		d, err := coins.ParseAmount(raw, coins.MaxPrecision)
		if err != nil {
			return zero, amountError(err, coins.MaxPrecision)
		}
		p := min(int32(coins.PrecisionFuturesTransfer), c.Precision)
		d = coins.TruncateToPrecision(d, p)
		if !d.IsPositive() {
			return zero, apperr.New(apperr.CodeWalletAmountZero)
		}
		return d, nil
	}
	d, err := coins.ParseAmount(raw, c.Precision)
	if err != nil {
		return zero, amountError(err, c.Precision)
	}
	return d, nil
}

// Transfer moves an amount between the user's spot account and one of the
// OTC, futures, cross margin or isolated margin accounts, as ONE ledger
// posting whose transfer record is written in the same transaction. A
// retry with the same RequestID is applied once.
func (s *Service) Transfer(ctx context.Context, uid string, in TransferInput) (TransferRecord, error) {
	if uid == "" {
		return TransferRecord{}, apperr.New(apperr.CodeNotSignedIn)
	}
	other := in.To
	if in.To == ledger.Spot {
		other = in.From
	}
	if (in.From != ledger.Spot && in.To != ledger.Spot) || other == ledger.Spot {
		return TransferRecord{}, apperr.New(apperr.CodeWalletTransferAccount)
	}
	c, err := s.coin(in.Coin)
	if err != nil {
		return TransferRecord{}, err
	}
	var typ string
	pair := ""
	switch other {
	case ledger.OTC:
		typ = TransferOTC
		if !contains(s.markets.OTCCoins, c.Symbol) {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
	case ledger.Futures:
		typ = TransferFutures
		if !contains(s.markets.FuturesCoins, c.Symbol) {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
	case ledger.MarginCross:
		typ = TransferMargin
		if !contains(s.markets.CrossCoins, c.Symbol) {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
	case ledger.MarginIsolated:
		typ = TransferMargin
		p, ok := s.markets.pair(in.Pair)
		if !ok {
			return TransferRecord{}, apperr.New(apperr.CodeWalletPairUnknown)
		}
		if c.Symbol != p.Base && c.Symbol != p.Quote {
			return TransferRecord{}, apperr.New(apperr.CodeWalletCoinNotTransferable, c.Symbol)
		}
		pair = p.Symbol
	default:
		return TransferRecord{}, apperr.New(apperr.CodeWalletTransferAccount)
	}
	amount, err := parseTransferAmount(in.Amount, c, other == ledger.Futures)
	if err != nil {
		return TransferRecord{}, err
	}
	reqID := strings.TrimSpace(in.RequestID)
	if !validRequestID(reqID) {
		return TransferRecord{}, apperr.Param(fmt.Sprintf("requestId: at most %d letters, digits, '-', '_' or '.'", MaxRequestIDLen))
	}
	idPart := "r" + randomID()
	if reqID != "" {
		idPart = "c" + shortHash(reqID)
	}
	account := func(k ledger.Kind) ledger.Account {
		if k == ledger.MarginIsolated {
			return ledger.IsolatedAccount(uid, pair)
		}
		return ledger.UserAccount(uid, k)
	}
	from, to := account(in.From), account(in.To)
	now := s.now().UnixMilli()
	k := transferKey(uid, idPart)
	rec := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, "id": idPart, "type": typ, "coin": c.Symbol,
		"amount": amount.String(), "from": string(in.From), "to": string(in.To), "symbol": pair,
		"ctime": now, store.AttrGSI1PK: transferLogPK(uid), store.AttrGSI1SK: fmt.Sprintf("%013d#%020d#%s", now, transferSeq.Add(1), idPart),
	}
	res, err := s.led.Post(ctx, ledger.Posting{
		ID:     "xfer:" + uid + ":" + idPart,
		Reason: "transfer_" + typ,
		Legs:   []ledger.Leg{ledger.Move(from, to, c.Symbol, amount)},
		Meta:   map[string]string{"uid": uid, "type": typ, "requestId": reqID},
		Extra:  []store.Op{store.PutOp(rec, store.ItemNotExists())},
	})
	switch {
	case errors.Is(err, ledger.ErrInsufficient):
		return TransferRecord{}, apperr.New(apperr.CodeWalletInsufficient)
	case errors.Is(err, ledger.ErrIDConflict):
		return TransferRecord{}, apperr.New(apperr.CodeWalletRequestReused)
	case err != nil:
		return TransferRecord{}, internal(err)
	}
	if res.Replayed {
		it, err := s.st.Get(ctx, k)
		if err != nil {
			return TransferRecord{}, internal(err)
		}
		r := transferOf(it)
		r.Replayed = true
		return r, nil
	}
	return transferOf(rec), nil
}

func transferOf(it store.Item) TransferRecord {
	r := TransferRecord{
		ID: it.Str("id"), Type: it.Str("type"), CoinSymbol: it.Str("coin"), Amount: it.Str("amount"),
		From: it.Str("from"), To: it.Str("to"), Symbol: it.Str("symbol"), Status: "success", Ctime: it.Int("ctime"),
	}
	r.FromName = AccountName(ledger.Kind(r.From), r.Symbol)
	r.ToName = AccountName(ledger.Kind(r.To), r.Symbol)
	return r
}
