package report

import "crudbench/bench/results"

// validationMatrix shows every (scenario, app) check at a glance.
func validationMatrix(run *results.Run, l layout) table {
	t := table{Header: append([]string{"scenario"}, l.apps...)}
	t.Right = make([]bool, len(t.Header))
	for _, s := range l.scenarios {
		c := []string{s}
		checked := false
		for _, a := range l.apps {
			v := "–"
			for _, val := range run.Validations {
				if val.Scenario == s && val.App == a {
					checked = true
					if val.OK {
						v = "ok"
					} else {
						v = "FAILED"
					}
				}
			}
			c = append(c, v)
		}
		if checked {
			t.Rows = append(t.Rows, row{Cells: texts(c...)})
		}
	}
	return t
}

// validationFailures lists what each failed check found wrong.
func validationFailures(run *results.Run) table {
	t := table{Header: []string{"scenario", "app", "problem"}, Right: []bool{false, false, false}}
	for _, v := range run.Validations {
		if !v.OK {
			p := v.Problem
			if p == "" {
				p = "(no problem recorded)"
			}
			t.Rows = append(t.Rows, row{Cells: texts(v.Scenario, v.App, p)})
		}
	}
	return t
}
