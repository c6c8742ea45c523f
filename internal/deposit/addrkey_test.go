package deposit

import (
	"strings"
	"testing"

	"tenger/internal/chain"
	"tenger/internal/store"
)

// The reverse-lookup keys stored before addresses were compared in their
// canonical form were the derived address, lower-cased for EVM. addrKey
// must give exactly those keys for derived addresses, so existing users'
// deposits still find them without a migration.
func TestAddrKeyMatchesStoredKeys(t *testing.T) {
	d, err := chain.New(chain.DevelopmentConfig())
	if err != nil {
		t.Fatal(err)
	}
	old := func(fam chain.Family, address string) store.Key {
		if fam == chain.FamilyEVM {
			address = strings.ToLower(address)
		}
		return store.Key{PK: "DEPADDR#" + string(fam) + "#" + address, SK: "A"}
	}
	for _, idx := range []uint32{0, 1, 2, 3, 99, 1000, 123456, 1<<31 - 1} {
		for _, c := range []chain.Chain{chain.BTC, chain.ETH, chain.TRX} {
			a, err := d.DepositAddress(c, idx)
			if err != nil {
				t.Fatal(err)
			}
			fam, _ := c.Family()
			k, err := addrKey(c, a.Address)
			if err != nil || k != old(fam, a.Address) {
				t.Errorf("addrKey(%s, %s) = %v, %v; stored key is %v", c, a.Address, k, err, old(fam, a.Address))
			}
			// The other chains of the family share the key.
			for _, o := range chain.All() {
				if of, _ := o.Family(); of == fam {
					if ko, err := addrKey(o, a.Address); err != nil || ko != k {
						t.Errorf("addrKey(%s, %s) = %v, %v; want %v", o, a.Address, ko, err, k)
					}
				}
			}
		}
	}
}
