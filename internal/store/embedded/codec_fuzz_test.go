package embedded

import (
	"testing"

	"tenger/internal/store"
	"tenger/internal/store/storetest"
)

// FuzzDecodeItem feeds arbitrary bytes to the item decoder: it must never
// panic, and whatever it accepts must survive a re-encoding unchanged.
func FuzzDecodeItem(f *testing.F) {
	f.Add(encodeItem(nil, store.Item{"pk": "a", "sk": "b"}))
	f.Add(encodeItem(nil, store.Item{"pk": "a", "sk": "b", "n": dec("-1.5"), "big": dec("123456789012345678901234567890.5"),
		"l": []any{nil, true, false, []byte{1}}, "m": map[string]any{"x": "y"}}))
	f.Add([]byte{})
	f.Add([]byte{1, 1, 'a', tagBig, 0, 200, 1})
	f.Add([]byte{1, 1, 'a', tagList, 255, 255, 255, 255, 15})
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := decodeItem(b, store.Key{PK: "a", SK: "b"})
		if err != nil {
			return
		}
		pk, ok1 := it[store.AttrPK].(string)
		sk, ok2 := it[store.AttrSK].(string)
		if !ok1 || !ok2 {
			return // the store only holds items with string keys
		}
		again, err := decodeItem(encodeItem(nil, it), store.Key{PK: pk, SK: sk})
		if err != nil {
			t.Fatalf("re-encoding of %x does not decode: %v", b, err)
		}
		if !storetest.EqualItems(again, it) {
			t.Fatalf("re-encoding changed %s into %s", storetest.Format(it), storetest.Format(again))
		}
	})
}
