package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"crudbench/bench/config"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// checks fakes the scenarios' checks: each scenario on each app passes
// unless fail holds a problem for it; the tokens of every pair of apps
// are accepted unless interchange is set. It records what it checked.
type checks struct {
	fail        map[[2]string]error
	interchange error
	// validated are the (scenario, app) checked, in order; headless
	// those checked with a session that has no login's header.
	validated, headless [][2]string
	exchanged           []string
}

func (c *checks) Validate(_ context.Context, s *scenario.Session, sc string) error {
	pair := [2]string{sc, s.App.Name}
	c.validated = append(c.validated, pair)
	if s.Header == nil {
		c.headless = append(c.headless, pair)
	}
	return c.fail[pair]
}

func (c *checks) Interchange(_ context.Context, a, b *scenario.Session) error {
	c.exchanged = append(c.exchanged, a.App.Name+"⇄"+b.App.Name)
	if c.interchange != nil {
		return fmt.Errorf("%s does not accept %s's token: %w", b.App.Name, a.App.Name, c.interchange)
	}
	return nil
}

// TestValidation drives the validation phase with fake apps and checks,
// and checks what it finds of every pair and says on the console.
func TestValidation(t *testing.T) {
	scenarios := []string{scenario.Control, scenario.ReadOne}
	// yoga is listed first but validated after rest, the REST app.
	info := []results.App{{Name: "yoga", Kind: string(scenario.KindGraphQL)}, {Name: "rest", Kind: string(scenario.KindREST)}}
	missing := errors.New("read-one: person 1 has 11 appointments, want 12")
	tests := []struct {
		name string
		// change sets up the world, the checks and the configuration.
		change func(w *world, c *checks, cfg *config.Config)
		// want is each failed pair's problem, in part; the others pass.
		want        map[[2]string]string
		wantConsole []string
		// wantExchanged are the token interchanges checked.
		wantExchanged []string
	}{
		{
			name:          "every scenario passes",
			change:        func(*world, *checks, *config.Config) {},
			wantConsole:   []string{"Validating 2 scenario(s) on 2 app(s)", "  yoga (kind graphql): passed control, read-one", "  rest (kind rest): passed control, read-one"},
			wantExchanged: []string{"yoga⇄rest"},
		},
		{
			name:          "a scenario that fails is kept out and said",
			change:        func(_ *world, c *checks, _ *config.Config) { c.fail[[2]string{scenario.ReadOne, "yoga"}] = missing },
			want:          map[[2]string]string{{scenario.ReadOne, "yoga"}: missing.Error()},
			wantConsole:   []string{"  yoga (kind graphql): passed control\n    FAILED read-one: " + missing.Error()},
			wantExchanged: []string{"yoga⇄rest"},
		},
		{
			name:   "a failed login fails every scenario but control",
			change: func(w *world, _ *checks, _ *config.Config) { w.dead["yoga"] = true },
			want:   map[[2]string]string{{scenario.ReadOne, "yoga"}: "log in to yoga"},
			// control is checked without a token.
			wantConsole: []string{"  yoga (kind graphql): passed control\n    FAILED read-one: log in to yoga"},
		},
		{
			name:          "tokens another app refuses fail every scenario but control",
			change:        func(_ *world, c *checks, _ *config.Config) { c.interchange = errors.New("signature invalid") },
			want:          map[[2]string]string{{scenario.ReadOne, "yoga"}: "rest does not accept yoga's token"},
			wantExchanged: []string{"yoga⇄rest"},
		},
		{
			name: "attached apps are not asked to share tokens",
			change: func(_ *world, c *checks, cfg *config.Config) {
				c.interchange = errors.New("signature invalid")
				cfg.Attach = []stack.Attached{{Name: "rest"}, {Name: "yoga"}}
			},
		},
		{
			// Only an attached app can be out of reach: its -attach URL
			// was bad.
			name: "an app that cannot be reached fails every scenario with why",
			change: func(w *world, _ *checks, cfg *config.Config) {
				w.apps["yoga"].unusable = errors.New(`-attach yoga: "ftp://x" is not an http URL`)
				cfg.Attach = []stack.Attached{{Name: "rest"}, {Name: "yoga"}}
			},
			want: map[[2]string]string{
				{scenario.Control, "yoga"}: "is not an http URL", {scenario.ReadOne, "yoga"}: "is not an http URL",
			},
			wantConsole: []string{"  yoga (kind graphql): passed none\n    FAILED control: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, "rest", "yoga")
			c := &checks{fail: map[[2]string]error{}}
			cfg := testConfig(scenarios, []string{"yoga", "rest"})
			tt.change(w, c, &cfg)
			p := newPhases(t, cfg, w)
			v := &validation{cfg: cfg, con: p.m.con, apps: w, check: c}
			valid, vs := v.run(context.Background(), info)

			if len(vs) != 4 {
				t.Fatalf("%d validations, want 4", len(vs))
			}
			for i, val := range vs {
				pair := [2]string{scenarios[i/2], cfg.Apps[i%2]}
				if val.Scenario != pair[0] || val.App != pair[1] {
					t.Errorf("validation %d is of %s on %s, want %s on %s", i, val.Scenario, val.App, pair[0], pair[1])
				}
				want, fails := tt.want[pair]
				switch {
				case val.OK != !fails || (valid.problem(pair[0], pair[1]) == nil) != !fails:
					t.Errorf("%s on %s: ok %v (problem %v), want ok %v", pair[0], pair[1], val.OK, valid.problem(pair[0], pair[1]), !fails)
				case fails && !strings.Contains(val.Problem, want):
					t.Errorf("%s on %s: problem %q, want it to say %q", pair[0], pair[1], val.Problem, want)
				}
			}
			if len(c.validated) > 0 && c.validated[0][1] != "rest" {
				t.Errorf("validated %v, want the REST app first", c.validated)
			}
			if w.apps["yoga"].unusable != nil {
				for _, pair := range c.validated {
					if pair[1] == "yoga" {
						t.Errorf("checked %s on yoga, which cannot be reached", pair[0])
					}
				}
			}
			if w.dead["yoga"] && (len(c.headless) != 1 || c.headless[0] != [2]string{scenario.Control, "yoga"}) {
				t.Errorf("checked without a login %v, want yoga's control alone", c.headless)
			}
			if strings.Join(c.exchanged, ",") != strings.Join(tt.wantExchanged, ",") {
				t.Errorf("token interchanges %v, want %v", c.exchanged, tt.wantExchanged)
			}
			for _, want := range tt.wantConsole {
				if !strings.Contains(p.out.String(), want) {
					t.Errorf("console lacks %q:\n%s", want, p.out)
				}
			}
		})
	}
}

// TestValidationKeepsOut checks that a pair that failed validation is
// kept out of both measuring phases, which say why.
func TestValidationKeepsOut(t *testing.T) {
	w := newWorld(t, "rest", "yoga")
	w.serve = upTo(800, 800)
	c := &checks{fail: map[[2]string]error{{scenario.ReadOne, "yoga"}: errors.New("read-one: a login page, not the person")}}
	cfg := testConfig([]string{scenario.ReadOne}, []string{"rest", "yoga"})
	p := newPhases(t, cfg, w)
	v := &validation{cfg: cfg, con: p.m.con, apps: w, check: c}
	valid, _ := v.run(context.Background(), []results.App{{Name: "rest", Kind: "rest"}, {Name: "yoga", Kind: "rest"}})

	runs := p.profiles(valid).run(context.Background())
	caps := p.search(valid).run(context.Background())
	for _, a := range w.attacks {
		if strings.Contains(a.Name, "/yoga") {
			t.Errorf("attacked %s, which failed validation", a.Name)
		}
	}
	const want = "validation failed: read-one: a login page, not the person"
	if len(runs) != 2 || runs[1].App != "yoga" || runs[1].Verdict != results.VerdictFailed || runs[1].Reason != want {
		t.Errorf("fixed-profile results %+v, want yoga's failed: %s", runs, want)
	}
	if len(caps) != 2 || caps[1].App != "yoga" || caps[1].Status != results.CapacityFailed || caps[1].Reason != want {
		t.Errorf("capacities %+v, want yoga's failed: %s", caps, want)
	}
	if runs[0].Verdict != results.VerdictOK || caps[0].Status != results.CapacityFound {
		t.Errorf("rest: %s and capacity %s, want it measured", runs[0].Verdict, caps[0].Status)
	}
}
