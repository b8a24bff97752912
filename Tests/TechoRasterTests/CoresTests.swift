// The cores a process may run on: the CPUs of its affinity mask, read from /proc/self/status.
import Testing

@testable import TechoRaster

@Suite struct CoresTests {
    @Test func theAffinityMaskIsCounted() {
        #expect(Cores.affinityCount(status: "Name:\ttecho\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(Cores.affinityCount(status: "Cpus_allowed:\t1\n") == 1)
        // Groups of 32 bits, separated by commas, most significant first.
        #expect(Cores.affinityCount(status: "Cpus_allowed:\tff,00000001\n") == 9)
        #expect(Cores.affinityCount(status: "Cpus_allowed:\t0\n") == nil)
        #expect(Cores.affinityCount(status: "Name:\ttecho\n") == nil)
        #expect(Cores.affinityCount(status: "Cpus_allowed:\tzz\n") == nil)
        #expect(Cores.available >= 1)
    }
}
