// Package withdraw is money going out: the withdrawal cost and settings the
// modals show, address validation, confirm_withdraw (codes per the user's
// flags, amount rules, fee, the rolling 24 h limit in USDT, the 24 h lock
// after a trade-password change, the verify-address switch), the MNT bank
// withdrawal, and the withdrawal workflow that sends, waits for the chain or
// bank confirmation and settles or releases.
//
// Money moves only through spotfunds.Funds (Options.Funds): the store
// ledger, or the engine that owns spot balances. A money call cannot share
// a store transaction with the withdrawal record, so every step writes the
// two one after the other, each idempotent, and doing a step again repairs
// a process that died between them:
//
//   - A submit writes the withdrawal record (PENDING), creates the workflow
//     instance and bumps the user's limit guard in one store transaction,
//     then holds the amount (Funds.Hold under Ref "withdraw:<id>"). A
//     balance that became short meanwhile fails the record ("insufficient
//     balance"); a FAILED withdrawal does not count against the 24 h limit.
//     A submit that died before its hold is repaired by the Hold step, which
//     makes the hold (or fails the withdrawal when the balance is short).
//   - Settle pays the hold out, then marks the record SUCCESS; Release gives
//     it back, then marks the record FAILED. A hold ends one way only, so a
//     Settle and a Release racing each other both leave the record in the
//     winner's outcome.
//
// The id comes from the client's requestId (or is derived from the request),
// so a retried submit finds the withdrawal it already made and holds nothing
// twice. The workflow's steps (Steps: Validate, Hold, Send, Await, Settle,
// Release) are idempotent on the withdrawal id and run the same in-process
// (internal/workflow) and in the Step Functions state machine.
//
// Storage layout:
//
//	withdrawal  pk "WD#<id>" sk "WD"  uid, kind (chain|bank), coin, chain, address, memo, addressId,
//	            amount, fee, net, usdt, status, txid, bank fields, url, reason, created, updated
//	            held (true once the hold is made and seen with the withdrawal still open)
//	            gsi1pk "WDHIST#<uid>" gsi1sk "<created ms, 13 digits>#<id>"
package withdraw

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/banksim"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/ledger"
	"tenger/internal/push"
	"tenger/internal/spotfunds"
	"tenger/internal/store"
	"tenger/internal/wallet"
)

// Withdrawal statuses (the history shows them).
const (
	// StatusPending: submitted (the funds held, or about to be by the
	// submit or the Hold step); the workflow has not sent yet.
	StatusPending = "PENDING"
	// StatusProcessing: sent to the chain or bank, waiting for its confirmation.
	StatusProcessing = "PROCESSING"
	StatusSuccess    = "SUCCESS"
	// StatusFailed: released back to the available balance (or never held).
	StatusFailed = "FAILED"
)

// ReasonInsufficient is the reason of a withdrawal that failed because the
// available balance could not cover its hold.
const ReasonInsufficient = "insufficient balance"

// Kinds of withdrawal.
const (
	KindChain = "chain"
	KindBank  = "bank"
)

// DefaultDailyLimitUSDT is withdraw_daily_limit_usdt when not configured.
var DefaultDailyLimitUSDT = decimal.NewFromInt(100000)

// Limits gives a user's 24 h withdrawal limit in USDT (*kyc.Service: the
// limit of the verification level the user holds).
type Limits interface {
	DailyLimitUSDT(ctx context.Context, uid string) (decimal.Decimal, error)
}

// FixedLimit is the same limit for every user: the limit when Options has
// no Limits.
type FixedLimit decimal.Decimal

// DailyLimitUSDT is the fixed limit.
func (f FixedLimit) DailyLimitUSDT(context.Context, string) (decimal.Decimal, error) {
	return decimal.Decimal(f), nil
}

// DepositOwners maps a deposit destination to the user it belongs to
// (*deposit.Service); "" when it is no user's.
type DepositOwners interface {
	OwnerOf(ctx context.Context, chainName, address, memo string) (string, error)
}

// Wallet is what withdrawals need from the accounts side (*wallet.Service).
type Wallet interface {
	IsSavedAddress(ctx context.Context, uid, coin, chainName, address, memo string) (bool, error)
	VerifyAddressOn(ctx context.Context, uid string) (bool, error)
	WithdrawLockedUntil(ctx context.Context, uid string) (time.Time, error)
	BankAccounts(ctx context.Context, uid string) ([]wallet.BankAccount, error)
	BankAccount(ctx context.Context, uid, id string) (wallet.BankAccount, error)
	Addresses(ctx context.Context, uid, coin string) ([]wallet.SavedAddress, error)
	USDTValue(ctx context.Context, coin string, amount decimal.Decimal) (decimal.Decimal, error)
}

var _ Wallet = (*wallet.Service)(nil)

// Verifier checks the user's verification codes (*auth.Service).
type Verifier interface {
	User(ctx context.Context, uid string) (auth.User, error)
	VerifyAll(ctx context.Context, uid string, factors ...auth.Factor) error
}

var _ Verifier = (*auth.Service)(nil)

// ChainRail sends on chain (*chainsim.Sim locally).
type ChainRail interface {
	Send(ctx context.Context, r chainsim.SendReq) (chainsim.Transfer, error)
	Watch(ctx context.Context, chainName, txid, token string) error
}

// BankRail pays out MNT (*banksim.Sim locally).
type BankRail interface {
	Pay(ctx context.Context, r banksim.PayReq) (banksim.Request, error)
	Watch(ctx context.Context, id, token string) error
	ConfirmURL(id string) string
}

var (
	_ ChainRail = (*chainsim.Sim)(nil)
	_ BankRail  = (*banksim.Sim)(nil)
)

// Completer delivers a rail's answer to the waiting workflow (the
// in-process runner, or Step Functions' SendTaskSuccess/Failure in AWS).
type Completer interface {
	Complete(ctx context.Context, token string, ok bool, detail string) error
}

// Starter wakes the in-process runner after a withdrawal was created (nil
// in AWS, where the API starts the state machine from the change feed).
type Starter interface{ Wake() }

// Options configure the service.
type Options struct {
	Store store.Store
	// Ledger is the store ledger: the balances the submit and get_cost
	// read (the engine's projection where the engine owns them).
	Ledger *ledger.Ledger
	// Funds moves the money: the hold of a withdrawal, its settlement or
	// release (default spotfunds.Ledger on Ledger and Store).
	Funds  spotfunds.Funds
	Coins  *coins.Catalogue
	Wallet Wallet
	Auth   Verifier
	Chain  ChainRail
	Bank   BankRail
	// Deposits, when set, lets withdrawals refuse the user's own deposit
	// address (notOwnAddress).
	Deposits DepositOwners
	// BankLedger is the ledger sub-account of the bank MNT is paid from
	// (the deposit service's BankInfo.Bank).
	BankLedger string
	// DailyLimitUSDT is withdraw_daily_limit_usdt (default 100000): every
	// user's limit when Limits is nil.
	DailyLimitUSDT decimal.Decimal
	// Limits, when set, gives each user's limit (the verification level's).
	Limits Limits
	// ExplorerTxURL, when set, is the transaction page of every chain in
	// place of the catalogue's explorers (deposit.ExplorerURL).
	ExplorerTxURL string
	Push          push.Pusher
	Now           func() time.Time
	Log           zerolog.Logger
}

// Service is the withdrawal side of the wallet.
type Service struct {
	o     Options
	comp  Completer
	start Starter
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
	if !o.DailyLimitUSDT.IsPositive() {
		o.DailyLimitUSDT = DefaultDailyLimitUSDT
	}
	if o.Limits == nil {
		o.Limits = FixedLimit(o.DailyLimitUSDT)
	}
	if o.BankLedger == "" {
		o.BankLedger = "KHAN"
	}
	return &Service{o: o}
}

// SetRunner connects the in-process workflow runner: it receives the rails'
// completions and is woken when a withdrawal starts.
func (s *Service) SetRunner(c Completer, w Starter) { s.comp, s.start = c, w }

// DailyLimit is withdraw_daily_limit_usdt (a user's own limit is
// DailyLimitOf's).
func (s *Service) DailyLimit() decimal.Decimal { return s.o.DailyLimitUSDT }

// DailyLimitOf is the user's 24 h withdrawal limit in USDT.
func (s *Service) DailyLimitOf(ctx context.Context, uid string) (decimal.Decimal, error) {
	l, err := s.o.Limits.DailyLimitUSDT(ctx, uid)
	if err != nil {
		return decimal.Zero, internal(err)
	}
	return l, nil
}

// Record is one withdrawal.
type Record struct {
	ID          string          `json:"id"`
	UID         string          `json:"-"`
	Kind        string          `json:"kind" doc:"chain or bank"`
	Coin        string          `json:"coin"`
	Chain       string          `json:"chain"`
	Address     string          `json:"address"`
	Memo        string          `json:"memo,omitempty"`
	AddressID   string          `json:"addressId,omitempty"`
	Amount      decimal.Decimal `json:"amount" doc:"debited amount (fee included)"`
	Fee         decimal.Decimal `json:"fee"`
	Net         decimal.Decimal `json:"net" doc:"amount sent: amount minus fee"`
	USDT        decimal.Decimal `json:"usdtValue" doc:"value in USDT when submitted, to 8 places"`
	Status      string          `json:"status" doc:"PENDING, PROCESSING, SUCCESS or FAILED"`
	TxID        string          `json:"txid,omitempty"`
	BankName    string          `json:"bankName,omitempty"`
	BankNameMN  string          `json:"bankNameMn,omitempty" doc:"the bank's Mongolian name"`
	AccountNo   string          `json:"bankAccNo,omitempty"`
	AccountName string          `json:"bankAccName,omitempty"`
	URL         string          `json:"url,omitempty"`
	Reason      string          `json:"reason,omitempty" doc:"why it failed"`
	Created     int64           `json:"createTime" doc:"Unix ms"`
	Updated     int64           `json:"updateTime" doc:"Unix ms"`
	// ExplorerURL is set by History once the withdrawal was sent (it has a txid).
	ExplorerURL string `json:"explorerUrl,omitempty" doc:"the sent transaction on the chain's block explorer"`
}

// KeyPrefix starts the partition key of every withdrawal record.
const KeyPrefix = "WD#"

func wdKey(id string) store.Key { return store.Key{PK: KeyPrefix + id, SK: "WD"} }

func recordOf(it store.Item) Record {
	return Record{ID: it.Str("id"), UID: it.Str("uid"), Kind: it.Str("kind"), Coin: it.Str("coin"), Chain: it.Str("chain"),
		Address: it.Str("address"), Memo: it.Str("memo"), AddressID: it.Str("addressId"), Amount: it.Dec("amount"),
		Fee: it.Dec("fee"), Net: it.Dec("net"), USDT: it.Dec("usdt").Round(8), Status: it.Str("status"), TxID: it.Str("txid"),
		BankName: it.Str("bankName"), BankNameMN: it.Str("bankNameMn"), AccountNo: it.Str("accountNo"), AccountName: it.Str("accountName"),
		URL: it.Str("url"), Reason: it.Str("reason"), Created: it.Int("created"), Updated: it.Int("updated")}
}

// Get reads a withdrawal (any user's: for the workflow and operators).
func (s *Service) Get(ctx context.Context, id string) (Record, error) {
	it, err := s.o.Store.Get(ctx, wdKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return Record{}, apperr.New(apperr.CodeWithdrawalUnknown)
	}
	if err != nil {
		return Record{}, internal(err)
	}
	return recordOf(it), nil
}

// GetOwn reads one of the user's withdrawals.
func (s *Service) GetOwn(ctx context.Context, uid, id string) (Record, error) {
	r, err := s.Get(ctx, id)
	if err != nil {
		return Record{}, err
	}
	if r.UID != uid {
		return Record{}, apperr.New(apperr.CodeWithdrawalUnknown)
	}
	return r, nil
}

// withdrawalID derives the id of a submit from the user and its
// idempotency key.
func withdrawalID(uid, key string) string {
	h := sha256.Sum256([]byte(uid + "\x00" + key))
	return "w" + hex.EncodeToString(h[:12])
}

func internal(err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return apperr.New(apperr.CodeInternal).WithCause(err)
}

func (s *Service) notify(ctx context.Context, r Record) {
	if s.o.Push == nil || r.UID == "" {
		return
	}
	if msg, err := push.Data("withdraw", s.o.Now(), r); err == nil {
		_, _ = s.o.Push.PublishUser(ctx, r.UID, msg)
	}
}

// SettledBy is the withdrawal a committed change settled: a withdrawal
// record whose status became SUCCESS, the moment its amount left the
// user's balance (the change feed's readers tell the user: the
// Binance-compatible balanceUpdate event).
func SettledBy(ch store.Change) (Record, bool) {
	k := wdKey("")
	if ch.New == nil || ch.Key.SK != k.SK || !strings.HasPrefix(ch.Key.PK, k.PK) {
		return Record{}, false
	}
	r := recordOf(ch.New)
	if r.Status != StatusSuccess || r.UID == "" || ch.Old != nil && ch.Old.Str("status") == StatusSuccess {
		return Record{}, false
	}
	return r, true
}
