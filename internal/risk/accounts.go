package risk

import (
	"errors"
	"fmt"
	"math"

	"tenger/internal/idmap"
)

// Coin is a coin's index in the engine's coin table (Accounts.AddCoin).
type Coin uint16

// Kind is an account kind the engine holds. Only the spot account today;
// margin and futures accounts join as further kinds, each with its own
// balances per coin, so a transfer between them is a move between kinds.
type Kind uint8

// Account kinds. KindFutures is the perpetual futures account (its margin
// coin's wallet balance: free, and held by open orders and positions' margin).
const (
	KindSpot Kind = iota
	KindFutures
	kindCount
)

// Balance is one balance in a coin's engine units: what can be spent, and
// what open orders and pending withdrawals hold.
type Balance struct {
	Avail int64
	Held  int64
}

// Slot is a user's dense index in the engine's tables.
type Slot int32

// NoSlot is the slot of a user the engine does not know.
const NoSlot Slot = -1

// Errors of balance operations; nothing changes when one is returned.
var (
	ErrInsufficient = errors.New("risk: insufficient available balance")
	ErrOverflow     = errors.New("risk: balance beyond the engine's int64 units")
	ErrNegative     = errors.New("risk: negative amount")
)

// Accounts holds every engine-owned balance, in dense arrays keyed by user
// slot, account kind and coin: no maps are walked and nothing is allocated
// on the hot path (a new user grows the arrays once).
type Accounts struct {
	coins []CoinInfo
	slots idmap.Map // user number → slot
	users []User
	bal   []Balance // slot × kindCount × len(coins) + kind × len(coins) + coin
	// Every balance changed since the last ClearChanged, once each (the
	// engine hands their final values to the store projection): stamp[i]
	// is gen when bal[i] is in changed.
	stamp   []uint32
	gen     uint32
	changed []int32
	before  []Balance // the value of changed[i] when it was first changed
}

// CoinInfo describes a coin in the engine: its code and the decimals of its
// engine unit (8 for most coins: one unit is 10^-8 of the coin).
type CoinInfo struct {
	Code     string
	Decimals int32
}

// User is a user the engine knows: its number (the matching core's UserID)
// and its id in the store.
type User struct {
	Num uint64
	ID  string
}

// NewAccounts returns empty accounts with room for capacity users.
func NewAccounts(capacity int) *Accounts {
	return &Accounts{slots: idmap.New(capacity), gen: 1}
}

// AddCoin appends a coin and returns its index. The balance arrays are
// laid out by the number of coins, so a coin listed while users exist
// copies them once into the wider layout.
func (a *Accounts) AddCoin(c CoinInfo) (Coin, error) {
	if len(a.coins) >= math.MaxUint16 {
		return 0, errors.New("risk: too many coins")
	}
	if c.Decimals < FeeDecimals || c.Decimals > 18 {
		return 0, fmt.Errorf("risk: coin %s has %d decimals: the engine needs 8 to 18", c.Code, c.Decimals)
	}
	old := len(a.coins)
	a.coins = append(a.coins, c)
	if len(a.users) > 0 {
		n := len(a.coins)
		bal := make([]Balance, len(a.users)*int(kindCount)*n)
		for row := 0; row < len(a.users)*int(kindCount); row++ {
			copy(bal[row*n:row*n+old], a.bal[row*old:(row+1)*old])
		}
		a.bal = bal
		// The changed balances moved to the wider layout: they stay
		// changed there (a group may list a coin after trades whose
		// balances its batch must still carry).
		a.stamp = make([]uint32, len(bal))
		for j, i := range a.changed {
			row, c := int(i)/old, int(i)%old
			ni := int32(row*n + c)
			a.changed[j] = ni
			a.stamp[ni] = a.gen
		}
	}
	return Coin(old), nil
}

// Coins lists the coin table.
func (a *Accounts) Coins() []CoinInfo { return a.coins }

// Slot is the user's slot, NoSlot when the engine does not know the user.
// Users numbered densely in the order they were registered (number = slot
// + 1, as the engine numbers them) are found without a hash lookup.
func (a *Accounts) Slot(num uint64) Slot {
	if i := num - 1; i < uint64(len(a.users)) && a.users[i].Num == num {
		return Slot(i)
	}
	if s, ok := a.slots.Get(num); ok {
		return Slot(s)
	}
	return NoSlot
}

// Register returns the user's slot, adding the user (with zero balances)
// the first time.
func (a *Accounts) Register(num uint64, id string) Slot {
	if s, ok := a.slots.Get(num); ok {
		return Slot(s)
	}
	s := Slot(len(a.users))
	a.users = append(a.users, User{Num: num, ID: id})
	a.bal = append(a.bal, make([]Balance, int(kindCount)*len(a.coins))...)
	a.stamp = append(a.stamp, make([]uint32, int(kindCount)*len(a.coins))...)
	a.slots.Put(num, int32(s))
	return s
}

// Users lists the known users by slot.
func (a *Accounts) Users() []User { return a.users }

// At returns the balance of a slot's account in a coin, to read it.
func (a *Accounts) At(s Slot, k Kind, c Coin) *Balance {
	return &a.bal[(int(s)*int(kindCount)+int(k))*len(a.coins)+int(c)]
}

// mut returns a balance about to change, noting it as changed.
func (a *Accounts) mut(s Slot, k Kind, c Coin) *Balance {
	i := (int(s)*int(kindCount)+int(k))*len(a.coins) + int(c)
	if a.stamp[i] != a.gen {
		a.stamp[i] = a.gen
		a.changed = append(a.changed, int32(i))
		a.before = append(a.before, a.bal[i])
	}
	return &a.bal[i]
}

// Changed calls fn for every balance changed since the last ClearChanged,
// once each, with its value before the first change and now.
func (a *Accounts) Changed(fn func(u *User, k Kind, c Coin, before, now Balance)) {
	n := int(kindCount) * len(a.coins)
	for j, i := range a.changed {
		fn(&a.users[int(i)/n], Kind(int(i)%n/len(a.coins)), Coin(int(i)%len(a.coins)), a.before[j], a.bal[i])
	}
}

// ClearChanged starts a new set of changed balances.
func (a *Accounts) ClearChanged() {
	a.changed = a.changed[:0]
	a.before = a.before[:0]
	a.gen++
	if a.gen == 0 { // wrapped: no stamp may equal it by accident
		clear(a.stamp)
		a.gen = 1
	}
}

// Get returns a copy of a balance (zero for an unknown user).
func (a *Accounts) Get(num uint64, k Kind, c Coin) Balance {
	s := a.Slot(num)
	if s == NoSlot {
		return Balance{}
	}
	return *a.At(s, k, c)
}

func addChecked(x, y int64) (int64, bool) {
	z := x + y
	return z, (z > x) == (y > 0) || y == 0
}

// Credit adds amount to what the account can spend (a deposit, a
// transfer in).
func (a *Accounts) Credit(s Slot, k Kind, c Coin, amount int64) error {
	if amount < 0 {
		return ErrNegative
	}
	b := a.mut(s, k, c)
	v, ok := addChecked(b.Avail, amount)
	if !ok || v > math.MaxInt64-b.Held {
		return ErrOverflow
	}
	b.Avail = v
	return nil
}

// Debit takes amount from what the account can spend (a transfer out).
func (a *Accounts) Debit(s Slot, k Kind, c Coin, amount int64) error {
	if amount < 0 {
		return ErrNegative
	}
	b := a.mut(s, k, c)
	if b.Avail < amount {
		return ErrInsufficient
	}
	b.Avail -= amount
	return nil
}

// Hold moves amount from available to held (an order, a withdrawal).
func (a *Accounts) Hold(s Slot, k Kind, c Coin, amount int64) error {
	if amount < 0 {
		return ErrNegative
	}
	b := a.mut(s, k, c)
	if b.Avail < amount {
		return ErrInsufficient
	}
	b.Avail -= amount
	b.Held += amount
	return nil
}

// Release moves amount back from held to available. Releasing more than is
// held is a broken invariant (an engine bug), never a user's error.
func (a *Accounts) Release(s Slot, k Kind, c Coin, amount int64) {
	b := a.mut(s, k, c)
	if amount < 0 || b.Held < amount {
		panic(fmt.Sprintf("risk: release of %d from %d held (user slot %d, coin %d)", amount, b.Held, s, c))
	}
	b.Held -= amount
	b.Avail += amount
}

// SpendHeld takes amount out of what is held (a trade's payment, a settled
// withdrawal).
func (a *Accounts) SpendHeld(s Slot, k Kind, c Coin, amount int64) {
	b := a.mut(s, k, c)
	if amount < 0 || b.Held < amount {
		panic(fmt.Sprintf("risk: spend of %d from %d held (user slot %d, coin %d)", amount, b.Held, s, c))
	}
	b.Held -= amount
}

// receive adds what a trade pays out. A trade's proceeds cannot exceed the
// int64 range in practice (the books bound price × quantity); a balance
// that would is a broken invariant.
func (a *Accounts) receive(s Slot, k Kind, c Coin, amount int64) {
	b := a.mut(s, k, c)
	v, ok := addChecked(b.Avail, amount)
	if !ok || amount < 0 {
		panic(fmt.Sprintf("risk: receiving %d onto %d (user slot %d, coin %d)", amount, b.Avail, s, c))
	}
	b.Avail = v
}

// Check verifies every balance is non-negative (the O(n) invariant run
// after batches in tests and under the risk_checks build tag).
func (a *Accounts) Check() error {
	for i, b := range a.bal {
		if b.Avail < 0 || b.Held < 0 {
			n := int(kindCount) * len(a.coins)
			return fmt.Errorf("risk: user %s kind %d coin %s: available %d held %d", a.users[i/n].ID,
				(i%n)/len(a.coins), a.coins[i%len(a.coins)].Code, b.Avail, b.Held)
		}
	}
	return nil
}
