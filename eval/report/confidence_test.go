package report

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilson against worked examples: 8 of 10 is [0.4902, 0.9433] (centre
// (8 + 1.9207)/13.8415 = 0.7167, half-width 1.96/13.8415 × √(1.6 + 0.9604)
// = 0.2266); 0 of 10 is [0, 0.2775]; 10 of 10 is [0.7225, 1]; 45 of 50
// is [0.7864, 0.9565].
func TestWilson(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		k, n      int
		low, high float64
	}{
		{8, 10, 0.4902, 0.9433},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{45, 50, 0.7864, 0.9565},
		{1, 1, 0.2065, 1},
	} {
		iv := Wilson(c.k, c.n)
		if !near(iv.Low, c.low, 1e-4) || !near(iv.High, c.high, 1e-4) || !near(iv.Rate, float64(c.k)/float64(c.n), 1e-12) {
			t.Errorf("Wilson(%d, %d) = %+v, want [%.4f, %.4f]", c.k, c.n, iv, c.low, c.high)
		}
	}
	if iv := Wilson(0, 0); iv.Low != 0 || iv.High != 1 || iv.Rate != 0 {
		t.Errorf("no runs: %+v", iv)
	}
}

// TestPassK against a worked example: three tasks of three runs each,
// passing 2, 0 and 3 times.
//
//	pass@1 = (2/3 + 0 + 1)/3 = 0.5556    pass^1 the same
//	pass@2 = (1 − C(1,2)/C(3,2) + 0 + 1)/3 = 2/3
//	pass^2 = (C(2,2)/C(3,2) + 0 + 1)/3 = (1/3 + 1)/3 = 0.4444
//	pass@3 = 2/3, pass^3 = (0 + 0 + 1)/3 = 1/3
func TestPassK(t *testing.T) {
	t.Parallel()
	tasks := []TaskTries{{3, 2}, {3, 0}, {3, 3}}
	for _, c := range []struct {
		k        int
		at, hat  float64
		wantSome bool
	}{
		{1, 5.0 / 9, 5.0 / 9, true},
		{2, 2.0 / 3, 4.0 / 9, true},
		{3, 2.0 / 3, 1.0 / 3, true},
		{4, 0, 0, false},
	} {
		at, ok1 := PassAtK(tasks, c.k)
		hat, ok2 := PassHatK(tasks, c.k)
		if ok1 != c.wantSome || ok2 != c.wantSome || !near(at, c.at, 1e-9) || !near(hat, c.hat, 1e-9) {
			t.Errorf("k=%d: pass@k %v (%v), pass^k %v (%v); want %v, %v", c.k, at, ok1, hat, ok2, c.at, c.hat)
		}
	}
	// A task with fewer runs than k is left out.
	if v, ok := PassHatK([]TaskTries{{1, 1}, {2, 1}}, 2); !ok || !near(v, 0, 1e-12) {
		t.Errorf("pass^2 over one task of two runs: %v %v", v, ok)
	}
}

// TestMcNemar: 1 regression and 9 improvements among the pairs is
// 2·(C(10,0) + C(10,1))/2^10 = 22/1024 = 0.0215 (beyond chance); 3 and 5
// is 2·(1 + 8 + 28 + 56)/256 = 0.7266 (within chance).
func TestMcNemar(t *testing.T) {
	t.Parallel()
	if p := McNemar(1, 9); !near(p, 22.0/1024, 1e-12) {
		t.Errorf("McNemar(1, 9) = %v", p)
	}
	if p := McNemar(3, 5); !near(p, 186.0/256, 1e-12) {
		t.Errorf("McNemar(3, 5) = %v", p)
	}
	if p := McNemar(0, 0); p != 1 {
		t.Errorf("no discordant pairs: %v", p)
	}
}

// TestFisher against the tea-tasting table (3 of 4 against 1 of 4: p =
// 34/70 = 0.4857) and a clear difference (10 of 10 against 0 of 10: p =
// 2/C(20,10) = 1.0825e-05).
func TestFisher(t *testing.T) {
	t.Parallel()
	if p := Fisher(3, 4, 1, 4); !near(p, 34.0/70, 1e-9) {
		t.Errorf("Fisher(3,4,1,4) = %v", p)
	}
	if p := Fisher(10, 10, 0, 10); !near(p, 2/184756.0, 1e-12) {
		t.Errorf("Fisher(10,10,0,10) = %v", p)
	}
	if p := Fisher(5, 10, 5, 10); !near(p, 1, 1e-9) {
		t.Errorf("equal samples: %v", p)
	}
}
