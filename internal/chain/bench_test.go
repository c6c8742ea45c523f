package chain

import "testing"

func BenchmarkDepositAddress(b *testing.B) {
	d, err := New(DevelopmentConfig())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []Chain{BTC, ETH, TRX, XRP} {
		b.Run(string(c), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := d.DepositAddress(c, uint32(i)&0x7fffffff); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkValidate(b *testing.B) {
	cases := map[Chain]string{
		BTC: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
		ETH: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
		TRX: "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH",
		XRP: "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3",
		TON: DevTONAddress,
	}
	for c, a := range cases {
		b.Run(string(c), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := Validate(c, a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
