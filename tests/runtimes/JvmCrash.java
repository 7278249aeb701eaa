// A real crash of the JVM: a store through sun.misc.Unsafe at address 0 faults
// inside libjvm (Unsafe_PutLong), which HotSpot cannot recover from: it writes
// its hs_err file and calls abort().
import java.lang.reflect.Field;

public class JvmCrash {
	public static void main(String[] args) throws Exception {
		Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
		f.setAccessible(true);
		sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
		System.out.println("crashing");
		System.out.flush();
		unsafe.putAddress(0L, 42L);
		System.out.println("survived");
	}
}
