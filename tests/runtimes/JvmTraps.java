// Faults that the JVM handles itself: JIT-compiled code has implicit null
// checks (the load faults, HotSpot's SIGSEGV handler turns it into a
// NullPointerException) and stack banging hits the guard zones (SIGSEGV ->
// StackOverflowError).  Nothing here is a crash.
public class JvmTraps {
	static class Box {
		int v = 1;
	}

	static Box none;	// null on purpose
	static int depth;

	static int read(Box b) {
		return b.v;
	}

	static void recurse() {
		depth++;
		recurse();
	}

	public static void main(String[] args) {
		int npe = 0;
		Box some = new Box();
		// Every other call passes null, so read() is compiled with the fault as its check.
		for (int i = 0; i < 100000; i++) {
			try {
				read((i & 1) == 0 ? none : some);
			} catch (NullPointerException e) {
				npe++;
			}
		}
		System.out.println("npe " + npe);
		int soe = 0;
		for (int i = 0; i < 5; i++) {
			depth = 0;
			try {
				recurse();
			} catch (StackOverflowError e) {
				soe++;
			}
		}
		System.out.println("soe " + soe);
	}
}
