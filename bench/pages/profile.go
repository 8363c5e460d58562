package pages

// Profile is the device a view emulates: network conditions and a CPU
// slowdown. The zero Profile is the desktop as it is, unthrottled.
type Profile struct {
	Name string
	// Latency is added to every request's round trip, in milliseconds.
	Latency float64
	// Download and Upload are throughputs in bytes per second; 0 leaves
	// them unthrottled.
	Download, Upload float64
	// CPUSlowdown is the CPU throttling factor; 0 or 1 is none.
	CPUSlowdown float64
}

// Desktop is the unthrottled profile.
var Desktop = Profile{Name: "desktop"}

// Mobile is DevTools' "Fast 3G" preset (562.5 ms of latency, 1.44 Mbit/s
// down, 675 kbit/s up) with 4× CPU throttling, Lighthouse's mobile
// setting: where JavaScript's weight shows.
var Mobile = Profile{Name: "mobile", Latency: 562.5, Download: 1.44e6 / 8, Upload: 675e3 / 8, CPUSlowdown: 4}

func (p Profile) throttlesNetwork() bool { return p.Latency > 0 || p.Download > 0 || p.Upload > 0 }
