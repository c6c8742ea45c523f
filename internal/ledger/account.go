// Package ledger is Tenger's double-entry book: the only code that changes
// balances. Every change is a Posting of one or more legs, each moving an
// amount of one coin from one account bucket to another; the whole posting
// (its idempotency record, every balance it touches, and any extra store
// operations the caller commits with it) is one store transaction, so it
// applies entirely or not at all, and replaying its id is a no-op.
//
// # Accounts
//
// An Account is an owner (a user id, or SystemOwner) with a Kind (spot, earn,
// futures, margin cross, margin isolated per pair, OTC; and the system kinds
// chain, bank, treasury, fees, insurance) and, where the kind needs it, a Sub
// (the pair of an isolated margin account, the chain or bank of an external
// account, the programme a treasury account pays for).
// Each account holds, per coin, an available and a frozen amount. Holds move
// available to frozen, releases move it back.
//
// External accounts (chain, bank and treasury) mirror the outside world: a
// deposit is a posting from the chain's external account to the user, so the
// external account goes negative by what came in; a prize the exchange pays
// out of its own pocket comes from a treasury account the same way. Only external accounts (and the
// futures settlement balances, which count among the holdings) may be
// negative. Hence, per coin, the sum over all accounts is always zero, and
// the sum over the non-external accounts equals net external inflow
// (deposits minus withdrawals): Audit proves both by replaying every posting.
//
// # Storage layout (single table)
//
//	balance  pk "BAL#<owner>"   sk "<kind>#<sub>#<coin>"  avail, frozen (numbers)
//	         gsi1pk "BALCOIN#<coin>" gsi1sk "<owner>#<kind>#<sub>"   (audit per coin)
//	posting  pk "POST#<id>"     sk "POST"   reason, legs (compact text, record.go), at
//	         gsi2pk "POSTSHARD#<n>" gsi2sk "<at-ms>#<id>"            (audit replay)
package ledger

import (
	"fmt"
	"strings"
)

// SystemOwner owns the exchange's own accounts.
const SystemOwner = "SYS"

// Kind is an account kind.
type Kind string

// Account kinds.
const (
	Spot           Kind = "spot"
	Earn           Kind = "earn"
	Futures        Kind = "futures"
	MarginCross    Kind = "margin_cross"
	MarginIsolated Kind = "margin_isolated" // Sub is the pair, e.g. "BTCUSDT"
	OTC            Kind = "otc"
	// Loan holds a user's crypto-loan collateral (frozen while it backs a
	// loan).
	Loan Kind = "loan"
	// Chain is the external counterpart of on-chain deposits and
	// withdrawals (Sub is the chain, e.g. "ERC20").
	Chain Kind = "chain"
	// Bank is the external counterpart of MNT bank transfers (Sub is the bank).
	Bank Kind = "bank"
	// Treasury is the exchange's own promotional money (Sub names what it
	// pays for, e.g. "competition"): external, as a chain is, since what it
	// pays comes from outside the users' holdings; its negative balance is
	// what it has paid.
	Treasury Kind = "treasury"
	// Fees collects trading and withdrawal fees.
	Fees Kind = "fees"
	// Insurance is a perpetual contract's insurance fund (Sub is the
	// contract).
	Insurance Kind = "insurance"
	// Settlement is a futures margin coin's settlement balance: realized
	// profits are paid from it and losses paid into it, so it nets to zero
	// once every position is closed. It may be negative meanwhile (the
	// open positions' losses back it); it counts among the holdings.
	Settlement Kind = "settlement"
	// Clearing is the engine projection's clearing account: each projected
	// batch's posting moves every change of an engine-owned balance through
	// it, and nets to zero in it (projection.go).
	Clearing Kind = "clearing"
)

var userKinds = map[Kind]bool{Spot: true, Earn: true, Futures: true, MarginCross: true, MarginIsolated: true, OTC: true, Loan: true}
var systemKinds = map[Kind]bool{Chain: true, Bank: true, Treasury: true, Fees: true, Insurance: true, Clearing: true, Settlement: true}

// External reports whether the kind mirrors the outside world (may be negative).
func (k Kind) External() bool { return k == Chain || k == Bank || k == Treasury }

// MayBeNegative reports whether a balance of the kind may be below zero:
// the external accounts, and the futures settlement balances.
func (k Kind) MayBeNegative() bool { return k.External() || k == Settlement }

// Account names one balance holder.
type Account struct {
	Owner string
	Kind  Kind
	Sub   string
}

// UserAccount is a user's account of a kind without a sub.
func UserAccount(uid string, k Kind) Account { return Account{Owner: uid, Kind: k} }

// IsolatedAccount is a user's isolated margin account of a pair.
func IsolatedAccount(uid, pair string) Account {
	return Account{Owner: uid, Kind: MarginIsolated, Sub: pair}
}

// ChainAccount is the external account of a chain.
func ChainAccount(chain string) Account { return Account{Owner: SystemOwner, Kind: Chain, Sub: chain} }

// BankAccount is the external account of a bank.
func BankAccount(bank string) Account { return Account{Owner: SystemOwner, Kind: Bank, Sub: bank} }

// TreasuryAccount is the exchange's promotional money for a programme
// (name: "competition" ...), from which prizes and rewards are paid.
func TreasuryAccount(name string) Account {
	return Account{Owner: SystemOwner, Kind: Treasury, Sub: name}
}

// FeeAccount is the exchange's fee income account.
func FeeAccount() Account { return Account{Owner: SystemOwner, Kind: Fees} }

// InsuranceAccount is a perpetual contract's insurance fund.
func InsuranceAccount(contract string) Account {
	return Account{Owner: SystemOwner, Kind: Insurance, Sub: contract}
}

// SettlementAccount holds the futures settlement balances (one per margin
// coin).
func SettlementAccount() Account { return Account{Owner: SystemOwner, Kind: Settlement} }

// Validate checks the account's shape.
func (a Account) Validate() error {
	if a.Owner == "" || strings.ContainsAny(a.Owner, "#") {
		return fmt.Errorf("%w: bad owner %q", ErrInvalid, a.Owner)
	}
	if strings.ContainsAny(a.Sub, "#") {
		return fmt.Errorf("%w: bad sub %q", ErrInvalid, a.Sub)
	}
	switch {
	case a.Owner == SystemOwner && systemKinds[a.Kind]:
		if a.Kind.External() && a.Sub == "" {
			return fmt.Errorf("%w: %s account needs a sub", ErrInvalid, a.Kind)
		}
	case a.Owner != SystemOwner && userKinds[a.Kind]:
		if (a.Kind == MarginIsolated) != (a.Sub != "") {
			return fmt.Errorf("%w: only isolated margin accounts have a pair", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: kind %q for owner %q", ErrInvalid, a.Kind, a.Owner)
	}
	return nil
}

func (a Account) String() string {
	if a.Sub == "" {
		return a.Owner + "/" + string(a.Kind)
	}
	return a.Owner + "/" + string(a.Kind) + "/" + a.Sub
}

// Bucket is the part of a balance a leg moves from or to.
type Bucket string

// Buckets.
const (
	Available Bucket = "avail"
	Frozen    Bucket = "frozen"
)

func balanceKeyParts(a Account, coin string) (pk, sk string) {
	return "BAL#" + a.Owner, string(a.Kind) + "#" + a.Sub + "#" + coin
}
