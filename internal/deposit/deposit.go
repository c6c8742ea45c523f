// Package deposit is money coming in: per-user deposit addresses (derived
// from the configured extended public keys, memos on memo chains), the
// chain watcher that credits a transfer once it has the coin's
// confirmations, MNT bank deposits whose reference is the user id, and the
// deposit history.
//
// Every credit goes through spotfunds.Funds (the only way outside the
// engine to change a user's spot balance), keyed by where the money came
// from (Ref "deposit:" + chain, txid and output; or the bank transaction
// id), so a replay, a restart or a second watcher never credits twice. The
// deposit record is written in its own step, not in the credit's
// transaction: the credit first, then the record's conditional update (a
// new record for a bank deposit). A crash between the two leaves the money
// credited and the record behind; the next run of the same path (the watcher
// observing the transfer again, the bank notification or the operator's
// assignment retried) credits nothing more, the credit answering nil as a
// retry, and brings the record up to date.
//
// Storage layout (single table):
//
//	user index   pk "DEPIDX#<uid>"          sk "IDX"   index (derivation index, allocated once)
//	index seq    pk "DEPIDX"                sk "SEQ"   n (next index - 1)
//	index owner  pk "DEPOWNER#<index>"      sk "O"     uid  (memo chains: memo → index → user)
//	address      pk "DEPADDR#<family>#<address>" sk "A"  uid, index  (EVM addresses lower-case)
//	deposit      pk "DEP#<id>"              sk "DEP"   uid, coin, chain, txid, vout, address, memo,
//	             amount, confirmations, required, status, created, credited
//	             gsi1pk "DEPHIST#<uid>" (or "DEPREVIEW" while held for review)
//	             gsi1sk "<created ms, 13 digits>#<id>"
package deposit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/chain"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/push"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
)

// Deposit statuses.
const (
	StatusConfirming = "confirming"
	StatusCredited   = "credited"
	// StatusReview: the money arrived but names no user (unknown address,
	// memo or bank reference); an operator assigns it.
	StatusReview = "review"
	// StatusBelowMin: a chain deposit smaller than the chain's depositMin;
	// it is not credited (final), shown in the user's history as such.
	StatusBelowMin = "below_min"
)

// BankInfo is the fixed bank block of the deposit modal (spec §2): where
// users send MNT, with their user id as the transaction value.
type BankInfo struct {
	// Bank is the ledger sub-account of the bank (ledger.BankAccount(Bank)).
	Bank string `json:"-"`
	// BankName and BankNameEN name the bank in Mongolian and English.
	BankName   string `json:"bankName"`
	BankNameEN string `json:"bankNameEn"`
	// AccountNo is the company account number.
	AccountNo string `json:"accountNo"`
	// Recipient and RecipientEN name the account holder.
	Recipient   string `json:"recipient"`
	RecipientEN string `json:"recipientEn"`
}

// DefaultBankInfo is the local configuration's bank block.
func DefaultBankInfo() BankInfo {
	return BankInfo{Bank: "KHAN", BankName: "Хаан Банк", BankNameEN: "Khan Bank", AccountNo: "5039112345",
		Recipient: "Тэнгэр Эксчейнж ХХК", RecipientEN: "Tenger Exchange LLC"}
}

// Options configure the service.
type Options struct {
	Store store.Store
	// Ledger reads balances (and is the default Funds' ledger).
	Ledger *ledger.Ledger
	// Funds credits deposits to users' spot balances (nil:
	// spotfunds.Ledger on Ledger and Store).
	Funds   spotfunds.Funds
	Coins   *coins.Catalogue
	Deriver *chain.Deriver
	// Push notifies the user's browser of deposits (optional).
	Push push.Pusher
	Bank BankInfo
	// ExplorerTxURL, when set, is the transaction page of every chain in
	// place of the catalogue's explorers (coins.TxURL's template): where
	// the chains are simulated, their transactions exist only there.
	ExplorerTxURL string
	Now           func() time.Time
	Log           zerolog.Logger
}

// Service is the deposit side of the wallet.
type Service struct {
	o Options
}

// New builds the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Ledger == nil {
		o.Ledger = ledger.New(o.Store, o.Now)
	}
	if o.Funds == nil {
		o.Funds = spotfunds.Ledger{Led: o.Ledger, Store: o.Store}
	}
	if o.Bank.Bank == "" {
		o.Bank = DefaultBankInfo()
	}
	return &Service{o: o}
}

// NewDeriver builds the address deriver of a deployment: the configured
// keys, with the public development keys filled in only outside
// production. In stage "prod" missing or development keys are refused.
func NewDeriver(stage string, cfg chain.Config) (*chain.Deriver, error) {
	if stage == "prod" {
		if cfg.UsesDevelopmentKeys() {
			return nil, fmt.Errorf("deposit: production refuses the public development keys; configure the exchange's own xpubs and addresses")
		}
		return chain.New(cfg)
	}
	return chain.New(cfg.WithDefaults())
}

// Bank returns the fixed bank block.
func (s *Service) Bank() BankInfo { return s.o.Bank }

// Record is one deposit as the history shows it.
type Record struct {
	ID            string          `json:"id"`
	UID           string          `json:"-"`
	Coin          string          `json:"coin"`
	Chain         string          `json:"chain"`
	TxID          string          `json:"txid"`
	Vout          int             `json:"vout"`
	Address       string          `json:"address"`
	Memo          string          `json:"memo,omitempty"`
	Amount        decimal.Decimal `json:"amount"`
	Confirmations int64           `json:"confirmations"`
	Required      int64           `json:"requiredConfirmations"`
	Status        string          `json:"status" doc:"confirming, credited, review or below_min (smaller than the chain's depositMin: not credited)"`
	Created       int64           `json:"createTime" doc:"Unix ms"`
	Credited      int64           `json:"creditTime,omitempty" doc:"Unix ms"`
	// ExplorerURL is set by History (ExplorerURL).
	ExplorerURL string `json:"explorerUrl,omitempty" doc:"the transaction on the chain's block explorer"`
}

// ExplorerURL is the block-explorer page of a transaction on a coin's
// chain: the chain's ExplorerTxURL, or override for every chain when set
// (Options.ExplorerTxURL). "" on the bank rail, for an unknown chain or
// without a transaction id.
func ExplorerURL(cat *coins.Catalogue, override, symbol, chainName, txid string) string {
	cfg, ok := cat.Chain(symbol, chainName)
	if !ok || cfg.IsBank() {
		return ""
	}
	template := cfg.ExplorerTxURL
	if override != "" {
		template = override
	}
	return coins.TxURL(template, cfg.Name, txid)
}

// KeyPrefix starts the partition key of every deposit record.
const KeyPrefix = "DEP#"

func depositKey(id string) store.Key { return store.Key{PK: KeyPrefix + id, SK: "DEP"} }

func histSK(ms int64, id string) string { return fmt.Sprintf("%013d#%s", ms, id) }

func recordOf(it store.Item) Record {
	return Record{ID: it.Str("id"), UID: it.Str("uid"), Coin: it.Str("coin"), Chain: it.Str("chain"), TxID: it.Str("txid"),
		Vout: int(it.Int("vout")), Address: it.Str("address"), Memo: it.Str("memo"), Amount: it.Dec("amount"),
		Confirmations: it.Int("confirmations"), Required: it.Int("required"), Status: it.Str("status"),
		Created: it.Int("created"), Credited: it.Int("credited")}
}

func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}

// notify tells the user's open browser tabs about a deposit (best effort:
// the history is the source of truth).
func (s *Service) notify(ctx context.Context, r Record) {
	if s.o.Push == nil || r.UID == "" {
		return
	}
	msg, err := push.Data("deposit", s.o.Now(), r)
	if err != nil {
		return
	}
	if _, err := s.o.Push.PublishUser(ctx, r.UID, msg); err != nil {
		s.o.Log.Debug().Err(err).Msg("deposit push")
	}
}

// CreditedBy is the deposit a committed change credited: a deposit record
// whose status became credited (the change feed's readers tell the user:
// the Binance-compatible balanceUpdate event).
func CreditedBy(ch store.Change) (Record, bool) {
	k := depositKey("")
	if ch.New == nil || ch.Key.SK != k.SK || !strings.HasPrefix(ch.Key.PK, k.PK) {
		return Record{}, false
	}
	r := recordOf(ch.New)
	if r.Status != StatusCredited || r.UID == "" || ch.Old != nil && ch.Old.Str("status") == StatusCredited {
		return Record{}, false
	}
	return r, true
}
